package dev.evidencestore.cluster;

import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Another instance is played by a second database session holding the same advisory lock. */
@QuarkusTest
class ClusterLockTest {

    @Inject
    ClusterLock cluster;

    @Test
    void skipsWorkWhileAnotherInstanceHoldsTheLockAndRunsItOnceReleased() throws SQLException {
        AtomicInteger runs = new AtomicInteger();
        try (Connection otherInstance = Sql.connect()) {
            lock(otherInstance, "pg_advisory_lock", "sweep-test");
            assertFalse(cluster.runIfFree("sweep-test", runs::incrementAndGet));
            assertEquals(0, runs.get());
            lock(otherInstance, "pg_advisory_unlock", "sweep-test");
        }
        assertTrue(cluster.runIfFree("sweep-test", runs::incrementAndGet));
        assertEquals(1, runs.get());
    }

    @Test
    void exclusiveWorkWaitsForTheOtherInstance() throws Exception {
        try (Connection otherInstance = Sql.connect()) {
            lock(otherInstance, "pg_advisory_lock", "load-test");
            CompletableFuture<String> waiting = CompletableFuture.supplyAsync(
                    () -> cluster.runExclusively("load-test", () -> "ran"));
            assertThrows(TimeoutException.class, () -> waiting.get(500, TimeUnit.MILLISECONDS));
            lock(otherInstance, "pg_advisory_unlock", "load-test");
            assertEquals("ran", waiting.get(10, TimeUnit.SECONDS));
        }
    }

    private static void lock(Connection connection, String function, String name) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT " + function + "(hashtextextended(?, 0))")) {
            statement.setString(1, "evidence-store:" + name);
            statement.execute();
        }
    }
}
