package dev.evidencestore.persistence;

import dev.evidencestore.domain.Attribution;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;
import java.util.List;

/** A blob the service has acknowledged; its bytes are in the configured backend. */
@Entity
@Immutable
@Table(name = "blob")
public class BlobEntity extends PanacheEntityBase {

    @Id
    public String digest;

    public long size;

    @Column(name = "created_at")
    public Instant createdAt;

    /**
     * Records a stored blob and its uploader, each once; true when the blob row is new. Both are plain inserts that
     * yield to a concurrent one, so two uploads of the same bytes both succeed.
     */
    public static boolean record(String digest, long size, Attribution uploader) {
        boolean created = getEntityManager().createNativeQuery("""
                        INSERT INTO blob (digest, size, created_at) VALUES (:digest, :size, now())
                        ON CONFLICT (digest) DO NOTHING""")
                .setParameter("digest", digest)
                .setParameter("size", size)
                .executeUpdate() == 1;
        getEntityManager().createNativeQuery("""
                        INSERT INTO blob_upload (digest, uploaded_by, uploaded_by_principal, uploaded_at)
                        VALUES (:digest, :uploader, :principal, now())
                        ON CONFLICT (digest, uploaded_by_principal) WHERE uploaded_by_principal IS NOT NULL
                        DO NOTHING""")
                .setParameter("digest", digest)
                .setParameter("uploader", uploader.name())
                .setParameter("principal", uploader.principalForm())
                .executeUpdate();
        return created;
    }

    /** Whether {@code caller} uploaded the blob: by principal, or by name for uploads from before principals. */
    public static boolean uploadedBy(String digest, Attribution caller) {
        return ((Number) getEntityManager().createNativeQuery("""
                        SELECT count(*) FROM blob_upload WHERE digest = :digest
                            AND (uploaded_by_principal = :principal
                                 OR uploaded_by_principal IS NULL AND uploaded_by = :name)""")
                .setParameter("digest", digest).setParameter("principal", caller.principalForm())
                .setParameter("name", caller.name())
                .getSingleResult()).longValue() > 0;
    }

    /** A blob's digest and size. */
    public record Stored(String digest, long size) {
    }

    /** Up to {@code batch} blobs never checked, by digest after {@code after}. */
    @SuppressWarnings("unchecked")
    public static List<Stored> neverChecked(String after, int batch) {
        List<Object[]> rows = getEntityManager().createNativeQuery("""
                        SELECT b.digest, b.size FROM blob b
                        WHERE b.digest > :after
                          AND NOT EXISTS (SELECT 1 FROM blob_integrity i WHERE i.digest = b.digest)
                        ORDER BY b.digest LIMIT :batch""")
                .setParameter("after", after)
                .setParameter("batch", batch)
                .getResultList();
        return rows.stream().map(row -> new Stored((String) row[0], ((Number) row[1]).longValue())).toList();
    }
}
