package dev.evidencestore.http;

import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Records older than evidence.idempotency.retention (24 h in tests too) are swept; younger ones stay. */
@QuarkusTest
class ExpiredKeysTest {

    @Inject
    ExpiredKeys expiredKeys;

    @Test
    void sweepsRecordsPastTheRetentionAndKeepsTheRest() throws SQLException {
        String expired = answered("now() - interval '25 hours'");
        String abandonedLongAgo = inFlight("now() - interval '30 hours'");
        String recent = answered("now() - interval '23 hours'");
        expiredKeys.sweep();
        assertEquals(0, rows(expired));
        assertEquals(0, rows(abandonedLongAgo));
        assertEquals(1, rows(recent));
    }

    private static String answered(String createdAt) throws SQLException {
        String key = UUID.randomUUID().toString();
        Sql.update("INSERT INTO idempotency_record (name, idempotency_key, fingerprint, state, lease, created_at, "
                + "completed_at, status, headers, body) VALUES ('alice', ?, 'sha256:' || repeat('0', 64), 'complete', "
                + "gen_random_uuid(), " + createdAt + ", " + createdAt + ", 201, '{}', '')", key);
        return key;
    }

    private static String inFlight(String createdAt) throws SQLException {
        String key = UUID.randomUUID().toString();
        Sql.update("INSERT INTO idempotency_record (name, idempotency_key, fingerprint, state, lease, created_at) "
                + "VALUES ('alice', ?, 'sha256:' || repeat('0', 64), 'in-flight', gen_random_uuid(), " + createdAt
                + ")", key);
        return key;
    }

    private static long rows(String key) throws SQLException {
        return Sql.count("SELECT count(*) FROM idempotency_record WHERE idempotency_key = ?", (Object) key);
    }
}
