package dev.evidencestore.audit;

import dev.evidencestore.storage.Anchor;
import dev.evidencestore.support.OwnDatabase;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.SignedNote;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints published to a directory, on a database of this class's own: the last test removes entries for good,
 * the way someone with the database but not the published files would.
 */
@QuarkusTest
@TestProfile(CheckpointPublishingTest.ToDirectory.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CheckpointPublishingTest {

    static final String DATABASE = "published";
    static final Path DIRECTORY = Path.of("target/published-checkpoints");
    private static final String ORIGIN = "evidence-store.test/audit";
    private static final String VERIFY = "/api/v1/audit/verify";

    public static class ToDirectory implements QuarkusTestProfile {
        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(OwnDatabase.class, Map.of(OwnDatabase.SUFFIX, DATABASE)),
                    new TestResourceEntry(EmptyDirectory.class));
        }
    }

    /** Publishing to a directory emptied first, so that no earlier run's checkpoints are in it. */
    public static class EmptyDirectory implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            deleteRecursively(DIRECTORY);
            return Map.of("evidence.audit.publish", "directory",
                    "evidence.audit.publish.directory", DIRECTORY.toString());
        }

        @Override
        public void stop() {
            // left for inspection; emptied by the next run
        }
    }

    @Inject
    Scheduler scheduler;

    @Inject
    Anchor anchor;

    @BeforeEach
    void pauseTheSchedule() {
        // the scheduled checkpoint must not slip in between the checkpoints a test writes and what it counts
        scheduler.pause(AuditCheckpoints.JOB);
    }

    @AfterEach
    void resumeTheSchedule() {
        scheduler.resume(AuditCheckpoints.JOB);
    }

    @Test
    @Order(1)
    void publishesEachCheckpointAsOneReadOnlyFileHoldingTheNoteByteForByte() throws Exception {
        AuditTrail.newIncident(AuditTrail.newWorkspace());
        Map<String, Object> checkpoint = checkpoint();
        Path file = DIRECTORY.resolve(name(checkpoint));
        assertArrayEquals(((String) checkpoint.get("note")).getBytes(StandardCharsets.UTF_8),
                Files.readAllBytes(file));
        assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.GROUP_READ,
                PosixFilePermission.OTHERS_READ), Files.getPosixFilePermissions(file), "read-only for everyone");
        assertEquals(storedNames(), files(), "one file per stored checkpoint, nothing else");

        Map<String, Object> verdict = verify();
        assertEquals(true, verdict.get("intact"), verdict.toString());
        assertEquals(files().size(), ((Number) verdict.get("publishedCheckpoints")).intValue());
        assertEquals(0, ((Number) verdict.get("unpublishedCheckpoints")).intValue());
    }

    @Test
    @Order(2)
    void neverOverwritesAPublishedFile() throws Exception {
        String name = name(checkpoint());
        byte[] published = Files.readAllBytes(DIRECTORY.resolve(name));
        anchor.publish(name, published);
        assertThrows(FileAlreadyExistsException.class,
                () -> anchor.publish(name, "another note".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals(published, Files.readAllBytes(DIRECTORY.resolve(name)));
        assertEquals(Set.of(), Set.copyOf(hidden()), "no file being written is left behind");
    }

    @Test
    @Order(3)
    void aCheckpointThatCouldNotBePublishedIsPublishedWithTheNext() throws Exception {
        Path away = Path.of(DIRECTORY + ".away");
        Files.move(DIRECTORY, away);
        Files.createFile(DIRECTORY); // not a directory: every publish fails
        String missed;
        try {
            missed = name(checkpoint());
        } finally {
            Files.delete(DIRECTORY);
            Files.move(away, DIRECTORY);
        }
        assertTrue(Files.notExists(DIRECTORY.resolve(missed)));
        Map<String, Object> unanchored = verify();
        assertEquals(true, unanchored.get("intact"), "a checkpoint not published yet is no break: " + unanchored);
        assertEquals(1, ((Number) unanchored.get("unpublishedCheckpoints")).intValue());

        String next = name(checkpoint());
        assertTrue(Files.exists(DIRECTORY.resolve(missed)), "retried with the next checkpoint");
        assertTrue(Files.exists(DIRECTORY.resolve(next)));
        Map<String, Object> verdict = verify();
        assertEquals(0, ((Number) verdict.get("unpublishedCheckpoints")).intValue());
        assertEquals(storedNames(), files());
    }

    @Test
    @Order(4)
    void aPublishedCheckpointSignedByAForeignKeyIsABreak() throws Exception {
        Map<String, Object> checkpoint = checkpoint();
        long size = ((Number) checkpoint.get("treeSize")).longValue();
        KeyPair foreign = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        // the right tree, signed by the wrong key: only the signature is wrong
        String note = SignedNote.sign(new Checkpoint(ORIGIN, size,
                Base64.getDecoder().decode((String) checkpoint.get("rootHash"))).body(), ORIGIN, foreign.getPrivate());
        String name = String.format("checkpoint-%020d-%s", size, NoteKey.of(ORIGIN, foreign.getPublic()).keyIdHex());
        Path planted = DIRECTORY.resolve(name);
        Files.writeString(planted, note);
        try {
            Map<String, Object> verdict = verify();
            assertEquals(false, verdict.get("intact"));
            assertEquals(null, verdict.get("firstBrokenSeq"));
            assertEquals("the published checkpoint " + planted + " is not signed by a trusted key "
                    + "(GET /api/v1/audit/keys lists them)", verdict.get("reason"));
        } finally {
            Files.delete(planted);
        }
        assertEquals(true, verify().get("intact"));
    }

    /**
     * The attack an anchor is for: entries removed after the last checkpoint left in the database, together with
     * the later checkpoint that covered them and their tree nodes. The database alone agrees with itself; the
     * published checkpoint does not. Last: the log of this database stays cut.
     */
    @Test
    @Order(5)
    void entriesRemovedAfterTheLastStoredCheckpointAreABreakWhenALaterOneWasPublished() throws Exception {
        long kept = ((Number) checkpoint().get("treeSize")).longValue();
        AuditTrail.newIncident(AuditTrail.newWorkspace());
        Map<String, Object> later = checkpoint();
        long covered = ((Number) later.get("treeSize")).longValue();
        assertTrue(covered > kept);
        // the second checkpoint's own entry too, so that the removal below takes it
        Sql.awaitAuditSequencedIn(OwnDatabase.name(DATABASE));
        try (Connection connection = OwnDatabase.connect(DATABASE); Statement sql = connection.createStatement()) {
            sql.execute("SET session_replication_role = replica");
            sql.execute("DELETE FROM audit_tree_checkpoint WHERE tree_size > " + kept);
            sql.execute("DELETE FROM audit_entry WHERE seq > " + kept);
            // every stored subtree over a removed leaf: node (level, idx) covers leaves up to (idx + 1) * 2^level
            sql.execute("DELETE FROM audit_tree_node WHERE (idx + 1) * power(2::numeric, level) > " + kept);
        }
        Map<String, Object> verdict = verify();
        assertEquals(false, verdict.get("intact"), verdict.toString());
        assertEquals(kept, ((Number) verdict.get("entries")).longValue(), "the walk itself finds nothing amiss");
        assertEquals(kept + 1, ((Number) verdict.get("firstBrokenSeq")).longValue());
        assertEquals("the log has " + kept + " entries, but the published checkpoint "
                + DIRECTORY.resolve(name(later)) + " covers " + covered + ": entries after " + kept
                + " were removed", verdict.get("reason"));
    }

    private static Map<String, Object> checkpoint() {
        return as(Tokens.bob()).post("/api/v1/audit/checkpoints").then().statusCode(201).extract().jsonPath()
                .getMap("");
    }

    private static String name(Map<String, Object> checkpoint) {
        return String.format("checkpoint-%020d-%s", ((Number) checkpoint.get("treeSize")).longValue(),
                checkpoint.get("keyId"));
    }

    private static Map<String, Object> verify() {
        return api().contentType("application/json").body("{}").post(VERIFY).then().statusCode(200).extract()
                .jsonPath().getMap("");
    }

    private static Set<String> storedNames() throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Connection connection = OwnDatabase.connect(DATABASE); Statement sql = connection.createStatement();
             ResultSet rows = sql.executeQuery("SELECT tree_size, key_id FROM audit_tree_checkpoint")) {
            while (rows.next()) {
                names.add(String.format("checkpoint-%020d-%s", rows.getLong(1), rows.getString(2)));
            }
        }
        return names;
    }

    private static Set<String> files() throws IOException {
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> !name.startsWith("."))
                    .collect(TreeSet::new, Set::add, Set::addAll);
        }
    }

    private static List<String> hidden() throws IOException {
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.startsWith(".")).toList();
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty " + root, e);
        }
    }
}
