package dev.evidencestore.service;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Decision;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.persistence.FindingCitationEntity;
import dev.evidencestore.persistence.FindingEntity;
import dev.evidencestore.persistence.ReviewEntity;
import dev.evidencestore.persistence.RootCauseEntity;
import dev.evidencestore.persistence.VerificationEntity;
import dev.evidencestore.render.ReviewStatement;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The statement draft of a review, made in the review's transaction from what the decided record cites and the
 * latest verification of each cited artifact at that moment: what the reviewer decided on.
 */
final class StatementDrafts {

    private StatementDrafts() {
    }

    static String ofFinding(FindingEntity finding, ReviewEntity review) {
        return draft(ReviewStatement.Record.FINDING, finding.findingId().toString(), finding.statement,
                finding.citations.stream(), review);
    }

    /** A root cause's subjects are the artifacts its findings cite. */
    static String ofRootCause(RootCauseEntity rootCause, ReviewEntity review) {
        return draft(ReviewStatement.Record.ROOT_CAUSE, rootCause.rootCauseId().toString(), rootCause.statement,
                rootCause.findings.stream().flatMap(link -> link.finding.citations.stream()), review);
    }

    private static String draft(ReviewStatement.Record record, String recordId, String text,
                                Stream<FindingCitationEntity> citations, ReviewEntity review) {
        List<ReviewStatement.Subject> subjects = new ArrayList<>();
        List<ReviewStatement.Relied> relied = new ArrayList<>();
        citations.forEach(citation -> {
            ArtifactId artifact = citation.artifact.artifactId();
            subjects.add(new ReviewStatement.Subject(artifact, Digest.parse(citation.digest)));
            VerificationEntity latest = FindingService.latestVerification(citation.artifact);
            if (latest != null && relied.stream().noneMatch(r -> r.artifact().equals(artifact))) {
                relied.add(new ReviewStatement.Relied(artifact, Digest.parse(latest.recordedDigest), latest.verified,
                        latest.verifiedAt, latest.verifier()));
            }
        });
        return ReviewStatement.draft(record, recordId, Decision.parse(review.decision), text,
                review.reviewer(), review.reviewedAt, subjects, relied);
    }
}
