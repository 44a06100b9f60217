package dev.evidencestore.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.Session;
import org.hibernate.annotations.Immutable;

import java.sql.PreparedStatement;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/** The signed statement of one review, written once (see V10__review_statements.sql). */
@Entity
@Immutable
@Table(name = "review_statement")
public class ReviewStatementEntity extends PanacheEntityBase {

    @Id
    public Long id;

    @Column(name = "incident_id")
    public Long incidentId;

    @Column(name = "finding_review_id")
    public Long findingReviewId;

    @Column(name = "root_cause_review_id")
    public Long rootCauseReviewId;

    @Column(name = "leaf_index")
    public long leafIndex;

    @Column(name = "key_id")
    public String keyId;

    public String envelope;

    @Column(name = "signed_at")
    public Instant signedAt;

    public static ReviewStatementEntity ofFindingReview(long reviewId) {
        return find("findingReviewId", reviewId).firstResult();
    }

    public static ReviewStatementEntity ofRootCauseReview(long reviewId) {
        return find("rootCauseReviewId", reviewId).firstResult();
    }

    /** The incident's statements, in log order. */
    public static List<ReviewStatementEntity> ofIncident(long incidentId) {
        return list("incidentId = ?1 order by leafIndex", incidentId);
    }

    /**
     * Inserts the statement unless its review has one already: another instance may sign the same review at the same
     * moment, and as signing is deterministic it wrote the same bytes.
     */
    public static void insertOnce(ReviewStatementEntity statement) {
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO review_statement (incident_id, finding_review_id, root_cause_review_id, leaf_index,
                                                  key_id, envelope, signed_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT DO NOTHING""")) {
                insert.setLong(1, statement.incidentId);
                insert.setObject(2, statement.findingReviewId, Types.BIGINT);
                insert.setObject(3, statement.rootCauseReviewId, Types.BIGINT);
                insert.setLong(4, statement.leafIndex);
                insert.setString(5, statement.keyId);
                insert.setString(6, statement.envelope);
                insert.setObject(7, statement.signedAt.atOffset(ZoneOffset.UTC));
                insert.executeUpdate();
            }
        });
    }
}
