package dev.evidencestore.api;

import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.evidencestore.domain.SignedReview;

import java.time.Instant;

/**
 * One signed review statement: which record was decided, how and when, the audit leaf of the review's entry, the
 * signing key's ID, and the DSSE envelope itself, as the JSON object that was stored when it was signed.
 */
public record ReviewStatementResponse(String record, String decision, Instant reviewedAt, long leafIndex, String keyId,
                                      @JsonRawValue String envelope) {

    static ReviewStatementResponse of(SignedReview statement) {
        return new ReviewStatementResponse(statement.record(), statement.decision().wire(), statement.reviewedAt(),
                statement.leafIndex(), statement.keyId(), statement.envelope());
    }
}
