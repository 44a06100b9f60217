package dev.evidencestore.persistence;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A released migration never changes: the service does not validate applied migrations at start (a third of a
 * second of every start), so this pins each versioned migration's Flyway checksum instead. A new migration appends
 * its line to {@code db/migration-checksums.txt}; a changed line means an applied migration was edited, which a
 * database already past it would never run: write a new migration instead.
 */
@QuarkusTest
class MigrationChecksumsTest {

    @Inject
    Flyway flyway;

    @Test
    void everyVersionedMigrationIsTheOneReleased() throws IOException {
        List<String> resolved = Arrays.stream(flyway.info().all())
                .filter(migration -> migration.getVersion() != null)
                .map(MigrationChecksumsTest::line)
                .toList();
        String pinned;
        try (InputStream in = getClass().getResourceAsStream("/db/migration-checksums.txt")) {
            assertNotNull(in, "db/migration-checksums.txt is missing");
            pinned = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(pinned, String.join("\n", resolved) + "\n",
                "a versioned migration changed, or a new one is not pinned yet");
    }

    private static String line(MigrationInfo migration) {
        return migration.getVersion() + " " + migration.getScript() + " " + Objects.toString(migration.getChecksum());
    }
}
