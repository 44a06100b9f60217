package dev.evidencestore.persistence;

import dev.evidencestore.domain.ArtifactDraft;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.ArtifactKind;
import dev.evidencestore.domain.Attribution;
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
import org.hibernate.Session;
import org.hibernate.annotations.Immutable;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /** The principal of {@link #createdBy}; null on rows written before principals were recorded. */
    @Column(name = "created_by_principal")
    public String createdByPrincipal;

    public Attribution creator() {
        return Attribution.of(createdBy, createdByPrincipal);
    }

    /**
     * The artifacts of one incident by name: one query of the columns an artifact needs, as a postmortem reads
     * hundreds of them and would otherwise load each as an entity, with its incident's row joined to every one.
     */
    public static List<Artifact> ofIncident(IncidentEntity incident) {
        Workspace workspace = new Workspace(incident.workspace);
        IncidentKey key = new IncidentKey(incident.key);
        return getEntityManager().createQuery("""
                        select a.name, b.digest, b.size, a.mediaType, a.source, a.kind, a.capturedAt, a.createdAt,
                               a.description, a.capture, a.createdBy
                        from ArtifactEntity a join a.blob b where a.incident = ?1 order by a.name""", Object[].class)
                .setParameter(1, incident).getResultStream()
                .map(row -> new Artifact(new ArtifactId(workspace, key, new RecordName((String) row[0])),
                        Digest.parse((String) row[1]), (Long) row[2], (String) row[3], (String) row[4],
                        ArtifactKind.parse((String) row[5]), (Instant) row[6], (Instant) row[7], (String) row[8],
                        (String) row[9], (String) row[10]))
                .toList();
    }

    public Artifact toArtifact() {
        return new Artifact(artifactId(), Digest.parse(blob.digest), blob.size, mediaType, source,
                ArtifactKind.parse(kind), capturedAt, createdAt, description, capture, createdBy);
    }

    public ArtifactId artifactId() {
        return new ArtifactId(new Workspace(incident.workspace), new IncidentKey(incident.key), new RecordName(name));
    }

    /**
     * Binds the name to the draft's blob unless the name is bound already: an insert that yields to a concurrent one,
     * so that two binds of one name cannot both win. When this call bound it, the artifact as stored (timestamps
     * rounded to PostgreSQL's microseconds, the capture as kept), read back in the same round trip; empty when the
     * name was bound already.
     */
    public static Optional<Artifact> bindIfFree(long incidentId, ArtifactId id, ArtifactDraft draft, long size,
                                                Instant createdAt, Attribution createdBy) {
        // plain JDBC on the transaction's connection: Hibernate's native query, its parameter parsing and its
        // result mapping cost as much CPU as the insert itself on this hot path
        return getEntityManager().unwrap(Session.class).doReturningWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    INSERT + " RETURNING captured_at, created_at, CAST(capture AS text)")) {
                bind(insert, incidentId, draft, createdAt, createdBy);
                try (ResultSet rows = insert.executeQuery()) {
                    if (!rows.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Artifact(id, draft.digest(), size, draft.mediaType(), draft.source(),
                            draft.kind(), rows.getObject(1, OffsetDateTime.class).toInstant(),
                            rows.getObject(2, OffsetDateTime.class).toInstant(), draft.description(),
                            rows.getString(3), createdBy.name()));
                }
            }
        });
    }

    private static final String INSERT = """
            INSERT INTO artifact (incident_id, name, digest, media_type, source, kind, captured_at, created_at,
                                  description, capture, created_by, created_by_principal)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS json), ?, ?)
            ON CONFLICT (incident_id, name) DO NOTHING""";

    private static void bind(PreparedStatement insert, long incidentId, ArtifactDraft draft, Instant createdAt,
                             Attribution createdBy) throws SQLException {
        insert.setLong(1, incidentId);
        insert.setString(2, draft.name().value());
        insert.setString(3, draft.digest().toString());
        insert.setString(4, draft.mediaType());
        insert.setString(5, draft.source());
        insert.setString(6, draft.kind().wire());
        insert.setObject(7, draft.capturedAt().atOffset(ZoneOffset.UTC));
        insert.setObject(8, createdAt.atOffset(ZoneOffset.UTC));
        insert.setString(9, draft.description());
        insert.setString(10, draft.capture());
        insert.setString(11, createdBy.name());
        insert.setString(12, createdBy.principalForm());
    }

    /**
     * Inserts the artifacts of a batch's group whose names are free, in one JDBC batch on the transaction's
     * connection, as {@link #bindIfFree} would one by one; returns, for each draft in the order given, whether its
     * row was inserted. A name taken before, or by an earlier draft of the same group, keeps its row. The rows go in
     * name order, so that two groups binding the same names lock them in the same order and never wait in a cycle.
     */
    public static boolean[] bindAllIfFree(long incidentId, List<ArtifactDraft> drafts, Instant createdAt,
                                          Attribution createdBy) {
        Integer[] order = new Integer[drafts.size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparing(i -> drafts.get(i).name().value()));
        boolean[] inserted = new boolean[drafts.size()];
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                for (int i : order) {
                    bind(insert, incidentId, drafts.get(i), createdAt, createdBy);
                    insert.addBatch();
                }
                int[] counts = insert.executeBatch();
                for (int k = 0; k < order.length; k++) {
                    inserted[order[k]] = counts[k] == 1;
                }
            }
        });
        return inserted;
    }

    /** The digests the artifacts named {@code names} of an incident are bound to, by name; absent names are left out. */
    public static Map<String, Digest> boundDigests(long incidentId, Collection<String> names) {
        Map<String, Digest> bound = new HashMap<>();
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT name, digest FROM artifact WHERE incident_id = ? AND name = ANY(?)")) {
                select.setLong(1, incidentId);
                select.setArray(2, connection.createArrayOf("text", names.toArray()));
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        bound.put(rows.getString(1), Digest.parse(rows.getString(2)));
                    }
                }
            }
        });
        return bound;
    }

    /** What a citation check needs of an artifact: its digest, and whether its latest verification passed. */
    public record Standing(Digest digest, Boolean latestVerified) {
    }

    /**
     * The standing of each of {@code ids} that exists, in one statement: one index lookup per ID (a LATERAL with
     * LIMIT 1 is never turned into a join that scans the tables), and the latest verification read backwards
     * from the index on (artifact_id, verified_at, id).
     */
    @SuppressWarnings("unchecked")
    public static Map<ArtifactId, Standing> standings(List<ArtifactId> ids) {
        Map<ArtifactId, Standing> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        List<Object[]> rows = getEntityManager().createNativeQuery("""
                        SELECT wanted.ord, a.digest,
                               (SELECT v.verified FROM verification v WHERE v.artifact_id = a.id
                                ORDER BY v.verified_at DESC, v.id DESC LIMIT 1)
                        FROM unnest(CAST(:workspaces AS text[]), CAST(:incidents AS text[]), CAST(:names AS text[]))
                             WITH ORDINALITY AS wanted(workspace, incident_key, name, ord)
                        CROSS JOIN LATERAL (
                            SELECT a.id, a.digest FROM incident i JOIN artifact a ON a.incident_id = i.id
                            WHERE i.workspace = wanted.workspace AND i.incident_key = wanted.incident_key
                                AND a.name = wanted.name
                            LIMIT 1) a""")
                .setParameter("workspaces", ids.stream().map(id -> id.workspace().slug()).toArray(String[]::new))
                .setParameter("incidents", ids.stream().map(id -> id.incident().value()).toArray(String[]::new))
                .setParameter("names", ids.stream().map(id -> id.name().value()).toArray(String[]::new))
                .getResultList();
        for (Object[] row : rows) {
            ArtifactId id = ids.get(((Number) row[0]).intValue() - 1);
            found.put(id, new Standing(Digest.parse((String) row[1]), (Boolean) row[2]));
        }
        return found;
    }

    /**
     * The facts a parser read from the artifact's bytes, as JSON (table derived_facts), if it has read them; they
     * are written once per artifact and parser version.
     */
    public static Optional<String> derivedFacts(ArtifactId id, String parser) {
        List<?> rows = getEntityManager().createNativeQuery("""
                        SELECT d.facts::text FROM derived_facts d
                        JOIN artifact a ON a.id = d.artifact_id JOIN incident i ON i.id = a.incident_id
                        WHERE i.workspace = :workspace AND i.incident_key = :key AND a.name = :name
                          AND d.parser = :parser""")
                .setParameter("workspace", id.workspace().slug())
                .setParameter("key", id.incident().value())
                .setParameter("name", id.name().value())
                .setParameter("parser", parser)
                .getResultList();
        return rows.isEmpty() ? Optional.empty() : Optional.of((String) rows.get(0));
    }

    /** Keeps what a parser read; instances may derive the same facts at once, and the first row stays. */
    public static void recordDerivedFacts(ArtifactId id, String parser, String facts, Instant at) {
        getEntityManager().createNativeQuery("""
                        INSERT INTO derived_facts (artifact_id, parser, facts, derived_at)
                        SELECT a.id, :parser, CAST(:facts AS jsonb), :at FROM artifact a
                        JOIN incident i ON i.id = a.incident_id
                        WHERE i.workspace = :workspace AND i.incident_key = :key AND a.name = :name
                        ON CONFLICT (artifact_id, parser) DO NOTHING""")
                .setParameter("parser", parser)
                .setParameter("facts", facts)
                .setParameter("at", at)
                .setParameter("workspace", id.workspace().slug())
                .setParameter("key", id.incident().value())
                .setParameter("name", id.name().value())
                .executeUpdate();
    }
}
