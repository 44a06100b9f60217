package dev.evidencestore.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Attribution;
import dev.evidencestore.persistence.Statements;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The idempotency_record table. Every operation is one statement, committed at once and outside any request
 * transaction: a claim must be visible to a concurrent retry before the create it guards begins, and must outlive
 * the create's rollback. Times are the database's, so instances whose clocks differ agree on what has expired.
 */
@ApplicationScoped
public class IdempotencyRecords {

    /**
     * Takes the key when it is new, or when the request holding it was abandoned, or its answer has expired; returns
     * a row only when it did. A key its owner's name still holds from before principals were recorded (a record
     * with no principal, neither abandoned nor expired) is not taken: that record answers, as it would have.
     */
    private static final String TAKE = """
            INSERT INTO idempotency_record (principal, name, idempotency_key, fingerprint, state, lease, created_at)
            SELECT ?, ?, ?, ?, 'in-flight', ?, now()
            WHERE NOT EXISTS (
                SELECT 1 FROM idempotency_record named
                WHERE named.principal IS NULL AND named.name = ? AND named.idempotency_key = ?
                    AND NOT (named.state = 'in-flight' AND named.created_at < now() - make_interval(secs => ?))
                    AND named.created_at >= now() - make_interval(secs => ?))
            ON CONFLICT (principal, idempotency_key) WHERE principal IS NOT NULL DO UPDATE
                SET name = EXCLUDED.name, fingerprint = EXCLUDED.fingerprint, state = 'in-flight',
                    lease = EXCLUDED.lease, created_at = now(), completed_at = NULL, status = NULL, headers = NULL,
                    body = NULL
                WHERE idempotency_record.state = 'in-flight'
                        AND idempotency_record.created_at < now() - make_interval(secs => ?)
                    OR idempotency_record.created_at < now() - make_interval(secs => ?)
            RETURNING lease""";
    /** The principal's record of the key, else the one its name holds from before principals were recorded. */
    private static final String READ = """
            SELECT fingerprint, state, status, headers::text, body FROM idempotency_record
            WHERE idempotency_key = ? AND (principal = ? OR principal IS NULL AND name = ?)
            ORDER BY principal NULLS LAST LIMIT 1""";
    private static final String COMPLETE = """
            UPDATE idempotency_record
            SET state = 'complete', completed_at = now(), status = ?, headers = CAST(? AS jsonb), body = ?
            WHERE principal = ? AND idempotency_key = ? AND lease = ? AND state = 'in-flight'""";
    private static final String RELEASE = """
            DELETE FROM idempotency_record WHERE principal = ? AND idempotency_key = ? AND lease = ?""";
    private static final String SWEEP = """
            DELETE FROM idempotency_record WHERE created_at < now() - make_interval(secs => ?)""";
    /** A row that vanishes between taking and reading (released, swept) is taken again, a few times at most. */
    private static final int ATTEMPTS = 3;
    /**
     * Storing or freeing a key is tried again on another connection when one fails: a pooled connection that a
     * database restart cut would otherwise leave the key claimed until it counts as abandoned. Both writes are
     * conditional on the lease, so repeating them is harmless.
     */
    private static final int SETTLE_ATTEMPTS = 3;
    private static final TypeReference<Map<String, List<String>>> HEADERS = new TypeReference<>() {
    };

    private final Statements statements;
    private final ObjectMapper mapper;
    private final Duration retention;
    private final Duration abandonedAfter;

    IdempotencyRecords(Statements statements, ObjectMapper mapper, EvidenceConfig config) {
        this.statements = statements;
        this.mapper = mapper;
        this.retention = config.idempotency().retention();
        this.abandonedAfter = config.idempotency().abandonedAfter();
    }

    Claim claim(Attribution owner, IdempotencyKey key, RequestFingerprint fingerprint) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            HeldKey held = new HeldKey(owner.principalForm(), key, UUID.randomUUID());
            if (take(held, owner.name(), fingerprint)) {
                return new Claim.Granted(held);
            }
            Optional<Claim> existing = existing(owner, key, fingerprint);
            if (existing.isPresent()) {
                return existing.get();
            }
        }
        return new Claim.InFlight();
    }

    /** Stores the answer, unless a retry took the key over meanwhile (then the retry's answer counts). */
    boolean complete(HeldKey held, StoredResponse response) {
        return settle(COMPLETE, statement -> {
            statement.setInt(1, response.status());
            statement.setString(2, json(response.headers()));
            statement.setBytes(3, response.body());
            statement.setString(4, held.principal());
            statement.setString(5, held.key().value());
            statement.setObject(6, held.lease());
        }) == 1;
    }

    /** Frees the key, for an answer that a retry might change: it runs again. */
    void release(HeldKey held) {
        settle(RELEASE, statement -> {
            statement.setString(1, held.principal());
            statement.setString(2, held.key().value());
            statement.setObject(3, held.lease());
        });
    }

    /** Deletes records older than the retention; returns how many. */
    int sweep() {
        return statements.update(SWEEP, statement -> statement.setDouble(1, seconds(retention)));
    }

    private boolean take(HeldKey held, String name, RequestFingerprint fingerprint) {
        return statements.query(TAKE, statement -> {
            statement.setString(1, held.principal());
            statement.setString(2, name);
            statement.setString(3, held.key().value());
            statement.setString(4, fingerprint.value());
            statement.setObject(5, held.lease());
            statement.setString(6, name);
            statement.setString(7, held.key().value());
            statement.setDouble(8, seconds(abandonedAfter));
            statement.setDouble(9, seconds(retention));
            statement.setDouble(10, seconds(abandonedAfter));
            statement.setDouble(11, seconds(retention));
        }, ResultSet::next);
    }

    private Optional<Claim> existing(Attribution owner, IdempotencyKey key, RequestFingerprint fingerprint) {
        return statements.query(READ, statement -> {
            statement.setString(1, key.value());
            statement.setString(2, owner.principalForm());
            statement.setString(3, owner.name());
        }, row -> row.next() ? Optional.of(claimOf(row, fingerprint)) : Optional.empty());
    }

    private Claim claimOf(ResultSet row, RequestFingerprint fingerprint) throws SQLException {
        if (!row.getString("fingerprint").equals(fingerprint.value())) {
            return new Claim.Reused();
        }
        if (row.getString("state").equals("in-flight")) {
            return new Claim.InFlight();
        }
        return new Claim.Completed(new StoredResponse(row.getInt("status"), headers(row.getString("headers")),
                row.getBytes("body")));
    }

    private String json(Map<String, List<String>> headers) {
        try {
            return mapper.writeValueAsString(headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write response headers as JSON", e);
        }
    }

    private Map<String, List<String>> headers(String json) {
        try {
            return mapper.readValue(json, HEADERS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored response headers are not the JSON written", e);
        }
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    private int settle(String sql, Statements.Binding binding) {
        IllegalStateException failure = null;
        for (int attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
            try {
                return statements.update(sql, binding);
            } catch (IllegalStateException e) {
                failure = e;
            }
        }
        throw failure;
    }
}
