package dev.evidencestore.persistence;

import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.ArtifactKind;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.RecordName;
import dev.evidencestore.domain.Workspace;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/** Read side of the write-once artifact table; rows are inserted by SQL so that concurrent binds stay atomic. */
@Entity
@Immutable
@Table(name = "artifact")
public class ArtifactEntity extends PanacheEntityBase {

    @Id
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "incident_id")
    public IncidentEntity incident;

    public String name;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "digest")
    public BlobEntity blob;

    @Column(name = "media_type")
    public String mediaType;

    public String source;
    public String kind;

    @Column(name = "captured_at")
    public Instant capturedAt;

    @Column(name = "created_at")
    public Instant createdAt;

    public String description;

    /** JSON text as parsed and re-serialised at the edge (a json column, not jsonb, so key order survives). */
    @JdbcTypeCode(SqlTypes.JSON)
    public String capture;

    @Column(name = "created_by")
    public String createdBy;

    public Artifact toArtifact() {
        ArtifactId id = new ArtifactId(new Workspace(incident.workspace), new IncidentKey(incident.key),
                new RecordName(name));
        return new Artifact(id, Digest.parse(blob.digest), blob.size, mediaType, source, ArtifactKind.parse(kind),
                capturedAt, createdAt, description, capture, createdBy);
    }
}
