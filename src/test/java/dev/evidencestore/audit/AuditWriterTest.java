package dev.evidencestore.audit;

import dev.evidencestore.support.Concurrently;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;

import static dev.evidencestore.support.Api.api;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Appends from many threads at once are committed together and still form one chain, each entry once. */
@QuarkusTest
class AuditWriterTest {

    @Inject
    AuditLog log;

    @Test
    void concurrentAppendsGetConsecutiveSeqsOnOneUnbrokenChain() throws Exception {
        List<Callable<AuditEntry>> appends = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            String path = "/api/v1/workspaces/group-commit/incidents/G-" + i;
            appends.add(() -> log.append(new AuditEvent("alice", "group-commit", "POST", path, null, 201, null)));
        }
        List<AuditEntry> entries = Concurrently.run(appends);

        HashSet<Long> seqs = new HashSet<>();
        entries.forEach(entry -> seqs.add(entry.seq()));
        assertEquals(64, seqs.size(), "every append got its own seq");
        for (AuditEntry entry : entries) {
            assertEquals(1, Sql.count("SELECT count(*) FROM audit_entry WHERE seq = ? AND path = ? AND entry_hash = ?",
                    entry.seq(), entry.path(), entry.entryHash()), "entry " + entry.seq() + " as returned");
        }
        assertEquals(Sql.count("SELECT count(*) FROM audit_entry"), Sql.count("SELECT max(seq) FROM audit_entry"));
        assertEquals(true, api().post("/api/v1/audit/verify").then().statusCode(200).extract().path("intact"));
    }
}
