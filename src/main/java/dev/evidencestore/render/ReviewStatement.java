package dev.evidencestore.render;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.Decision;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.ProblemType;
import org.apache.commons.codec.digest.DigestUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The in-toto Statement v1 that attests one review decision: its subjects are the artifacts the decided record cites
 * (by artifact ID and SHA-256), its predicate the decision, the record, the SHA-256 of the record's statement text,
 * the reviewer, the time, the verifications relied on, and the audit log leaf of the review's own entry. Written as
 * RFC 8785 canonical JSON, so the same review always gives the same bytes.
 *
 * <p>It is made in two steps because the leaf index is known only once the sequencer numbered the entry, after the
 * review committed: the review's transaction captures the {@link #draft draft}, and the {@link #payload payload}
 * that is signed adds the log's position to it.
 */
public final class ReviewStatement {

    public static final String PAYLOAD_TYPE = "application/vnd.in-toto+json";
    public static final String STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
    /** On the host of the problem types, so every URI the service mints is its own. */
    public static final String PREDICATE_TYPE = URI.create(ProblemType.BASE_URI).resolve("/attestations/review/v1")
            .toString();

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What kind of record was decided: the predicate names its ID under this member. */
    public enum Record {
        FINDING("finding"), ROOT_CAUSE("rootCause");

        private final String member;

        Record(String member) {
            this.member = member;
        }
    }

    /** A cited artifact, with the digest it was cited at. */
    public record Subject(ArtifactId artifact, Digest digest) {
    }

    /** The latest verification of a cited artifact when the review was decided. */
    public record Relied(ArtifactId artifact, Digest digest, boolean verified, Instant at, Attribution by) {
    }

    private ReviewStatement() {
    }

    /**
     * The statement without its place in the log, as canonical JSON. Subjects and verifications are sorted by
     * artifact ID, and a subject cited twice (by two findings of a root cause) is listed once.
     */
    public static String draft(Record record, String recordId, Decision decision, String statementText,
                               Attribution reviewer, Instant reviewedAt, List<Subject> subjects,
                               List<Relied> relied) {
        Map<String, Object> predicate = new LinkedHashMap<>();
        predicate.put("decision", decision.wire());
        predicate.put(record.member, recordId);
        predicate.put("statementSha256", DigestUtils.sha256Hex(statementText.getBytes(StandardCharsets.UTF_8)));
        predicate.put("reviewer", party(reviewer));
        predicate.put("reviewedAt", reviewedAt.toString());
        predicate.put("verifications", relied.stream().sorted(Comparator.comparing(r -> r.artifact().toString()))
                .map(ReviewStatement::verification).toList());
        Map<String, Object> statement = new LinkedHashMap<>();
        statement.put("_type", STATEMENT_TYPE);
        Map<String, String> cited = new TreeMap<>();
        subjects.forEach(s -> cited.putIfAbsent(s.artifact().toString(), s.digest().hex()));
        statement.put("subject", cited.entrySet().stream().map(ReviewStatement::subject).toList());
        statement.put("predicateType", PREDICATE_TYPE);
        statement.put("predicate", predicate);
        return new String(EvidenceManifest.canonical(statement), StandardCharsets.UTF_8);
    }

    /** The bytes to sign: the draft with the log's origin and the leaf index of the review's audit entry. */
    public static byte[] payload(String draft, String origin, long leafIndex) {
        Map<String, Object> statement = read(draft);
        @SuppressWarnings("unchecked")
        Map<String, Object> predicate = (Map<String, Object>) statement.get("predicate");
        Map<String, Object> log = new LinkedHashMap<>();
        log.put("origin", origin);
        log.put("leafIndex", leafIndex);
        predicate.put("log", log);
        return EvidenceManifest.canonical(statement);
    }

    private static Map<String, Object> subject(Map.Entry<String, String> idAndHex) {
        Map<String, Object> subject = new LinkedHashMap<>();
        subject.put("name", idAndHex.getKey());
        subject.put("digest", Map.of("sha256", idAndHex.getValue()));
        return subject;
    }

    private static Map<String, Object> verification(Relied relied) {
        Map<String, Object> verification = new LinkedHashMap<>();
        verification.put("artifact", relied.artifact().toString());
        verification.put("digest", relied.digest().toString());
        verification.put("verified", relied.verified());
        verification.put("verifiedAt", relied.at().toString());
        verification.put("verifiedBy", party(relied.by()));
        return verification;
    }

    /** A display name and the principal; the principal is null for a party recorded before principals were. */
    private static Map<String, Object> party(Attribution who) {
        Map<String, Object> party = new LinkedHashMap<>();
        party.put("name", who.name());
        party.put("principal", who.principalForm());
        return party;
    }

    private static Map<String, Object> read(String draft) {
        try {
            return JSON.readValue(draft, new TypeReference<>() {
            });
        } catch (IOException e) {
            throw new UncheckedIOException("a stored statement draft is not JSON", e);
        }
    }
}
