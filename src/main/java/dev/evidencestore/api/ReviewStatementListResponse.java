package dev.evidencestore.api;

import dev.evidencestore.domain.SignedReview;

import java.util.List;

/** Signed review statements, in the order of their audit log leaves. */
public record ReviewStatementListResponse(List<ReviewStatementResponse> items) {

    static ReviewStatementListResponse of(List<SignedReview> statements) {
        return new ReviewStatementListResponse(statements.stream().map(ReviewStatementResponse::of).toList());
    }
}
