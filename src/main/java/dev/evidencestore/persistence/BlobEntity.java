package dev.evidencestore.persistence;

import dev.evidencestore.domain.Attribution;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.Session;
import org.hibernate.annotations.Immutable;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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

    private static final String INSERT_BLOB = """
            INSERT INTO blob (digest, size, created_at) VALUES (?, ?, now())
            ON CONFLICT (digest) DO NOTHING""";
    private static final String INSERT_UPLOAD = """
            INSERT INTO blob_upload (digest, uploaded_by, uploaded_by_principal, uploaded_at)
            VALUES (?, ?, ?, now())
            ON CONFLICT (digest, uploaded_by_principal) WHERE uploaded_by_principal IS NOT NULL DO NOTHING""";

    /**
     * Records a stored blob and its uploader, each once; true when the blob row is new. Both are plain inserts that
     * yield to a concurrent one, so two uploads of the same bytes both succeed.
     */
    public static boolean record(String digest, long size, Attribution uploader) {
        // one statement, one round trip: the upload row is inserted whether or not the blob row was new; plain JDBC
        // on the transaction's connection, as Hibernate's native query cost more CPU than the statement
        return getEntityManager().unwrap(Session.class).doReturningWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement("WITH blob_row AS (" + INSERT_BLOB
                    + " RETURNING 1), upload_row AS (" + INSERT_UPLOAD + ") SELECT count(*) FROM blob_row")) {
                bindBlob(insert, 1, digest, size);
                bindUpload(insert, 3, digest, uploader);
                try (ResultSet rows = insert.executeQuery()) {
                    rows.next();
                    return rows.getLong(1) == 1;
                }
            }
        });
    }

    /**
     * Records the blobs of a batch's group and their uploader in one JDBC batch on the transaction's connection, as
     * {@link #record} would one by one. In digest order, so that two groups recording the same blobs at once lock
     * their rows in the same order and never wait for each other in a cycle.
     */
    public static void recordAll(List<Stored> blobs, Attribution uploader) {
        List<Stored> ordered = blobs.stream().sorted(Comparator.comparing(Stored::digest)).toList();
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement blob = connection.prepareStatement(INSERT_BLOB);
                 PreparedStatement upload = connection.prepareStatement(INSERT_UPLOAD)) {
                for (Stored stored : ordered) {
                    bindBlob(blob, 1, stored.digest(), stored.size());
                    blob.addBatch();
                    bindUpload(upload, 1, stored.digest(), uploader);
                    upload.addBatch();
                }
                blob.executeBatch();
                upload.executeBatch();
            }
        });
    }

    private static void bindBlob(PreparedStatement insert, int from, String digest, long size) throws SQLException {
        insert.setString(from, digest);
        insert.setLong(from + 1, size);
    }

    private static void bindUpload(PreparedStatement insert, int from, String digest, Attribution uploader)
            throws SQLException {
        insert.setString(from, digest);
        insert.setString(from + 1, uploader.name());
        insert.setString(from + 2, uploader.principalForm());
    }

    /**
     * What decides who may see a blob, in one query: its size, whether {@code caller} uploaded it (by principal, or
     * by name for uploads from before principals), and, when not, the workspaces in which an artifact binds it.
     * Empty when no such blob was recorded.
     */
    public static Optional<Visibility> visibility(String digest, Attribution caller) {
        List<?> rows = getEntityManager().createNativeQuery("""
                        SELECT b.size, u.uploaded,
                               CASE WHEN u.uploaded THEN '' ELSE (
                                   SELECT string_agg(DISTINCT i.workspace, ' ') FROM artifact a
                                   JOIN incident i ON i.id = a.incident_id WHERE a.digest = b.digest) END
                        FROM blob b CROSS JOIN LATERAL (
                            SELECT EXISTS (SELECT 1 FROM blob_upload WHERE digest = b.digest
                                AND (uploaded_by_principal = :principal
                                     OR uploaded_by_principal IS NULL AND uploaded_by = :name)) AS uploaded) u
                        WHERE b.digest = :digest""")
                // an anonymous caller uploaded nothing; '' matches no principal and no name
                .setParameter("digest", digest)
                .setParameter("principal", Objects.requireNonNullElse(caller.principalForm(), ""))
                .setParameter("name", Objects.requireNonNullElse(caller.name(), ""))
                .getResultList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] row = (Object[]) rows.get(0);
        String workspaces = (String) row[2];
        return Optional.of(new Visibility(((Number) row[0]).longValue(), (Boolean) row[1],
                workspaces == null || workspaces.isEmpty() ? List.of() : List.of(workspaces.split(" "))));
    }

    /** A recorded blob's size, whether the caller uploaded it, and where artifacts bind it (when they did not). */
    public record Visibility(long size, boolean uploadedByCaller, List<String> bindingWorkspaces) {
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
