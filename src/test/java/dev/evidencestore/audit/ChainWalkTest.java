package dev.evidencestore.audit;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Which entry the walk names for each way a chain of five can be tampered with. */
class ChainWalkTest {

    private static final Instant AT = Instant.parse("2026-06-18T09:00:00.123456Z");

    @Test
    void anIntactChainHasNoBreak() {
        assertNull(walk(chain()));
        assertNull(walk(List.of()));
    }

    @Test
    void namesAnEntryWhoseContentChanged() {
        List<AuditEntry> chain = chain();
        AuditEntry third = chain.get(2);
        chain.set(2, new AuditEntry(3, third.at(), "mallory", third.workspace(), third.method(), third.path(),
                third.target(), third.status(), third.problem(), third.replayed(), third.prevHash(),
                third.entryHash()));
        assertEquals(3L, walk(chain).seq());
    }

    @Test
    void namesAnEntryWhoseReplayMarkChanged() {
        List<AuditEntry> chain = chain();
        AuditEntry third = chain.get(2);
        chain.set(2, new AuditEntry(3, third.at(), third.actor(), third.workspace(), third.method(), third.path(),
                third.target(), third.status(), third.problem(), true, third.prevHash(), third.entryHash()));
        assertEquals(3L, walk(chain).seq());
    }

    @Test
    void namesAnEntryRewrittenWithItsHashRecomputed() {
        List<AuditEntry> chain = chain();
        chain.set(2, AuditEntry.chain(3, AT, event("mallory"), chain.get(1).entryHash()));
        assertEquals(new ChainBreak(3L, "entry 4 does not link to entry 3: entry 3 was rewritten and its hash "
                + "recomputed"), walk(chain));
    }

    @Test
    void namesAnEntryWhoseLinkWasRewrittenWithItsHashRecomputed() {
        List<AuditEntry> chain = chain();
        chain.set(2, AuditEntry.chain(3, AT, event("alice"), ChainHash.GENESIS));
        assertEquals(3L, walk(chain).seq());
    }

    @Test
    void namesAMissingEntry() {
        List<AuditEntry> chain = chain();
        chain.remove(2);
        assertEquals(new ChainBreak(3L, "entry 3 is missing: the chain goes from entry 2 to entry 4"), walk(chain));
    }

    @Test
    void namesAFirstEntryThatDoesNotStartTheChain() {
        List<AuditEntry> chain = chain();
        chain.set(0, AuditEntry.chain(1, AT, event("alice"), chain.get(4).entryHash()));
        assertEquals(1L, walk(chain).seq());
    }

    @Test
    void aRewrittenHeadNeedsACheckpointToShow() {
        List<AuditEntry> chain = chain();
        chain.set(4, AuditEntry.chain(5, AT, event("mallory"), chain.get(3).entryHash()));
        assertNull(walk(chain));
    }

    @Test
    void keepsCountingPastTheFirstBreak() {
        List<AuditEntry> chain = chain();
        chain.set(1, AuditEntry.chain(2, AT, event("mallory"), ChainHash.GENESIS));
        ChainWalk walk = new ChainWalk();
        chain.forEach(walk::next);
        assertEquals(2L, walk.finish().seq());
        assertEquals(5, walk.entries());
    }

    private static ChainBreak walk(List<AuditEntry> chain) {
        ChainWalk walk = new ChainWalk();
        chain.forEach(walk::next);
        return walk.finish();
    }

    private static List<AuditEntry> chain() {
        List<AuditEntry> chain = new ArrayList<>();
        String prev = ChainHash.GENESIS;
        for (long seq = 1; seq <= 5; seq++) {
            AuditEntry entry = AuditEntry.chain(seq, AT, event("alice"), prev);
            chain.add(entry);
            prev = entry.entryHash();
        }
        return chain;
    }

    private static AuditEvent event(String actor) {
        return new AuditEvent(actor, "demo", "POST", "/api/v1/workspaces/demo/incidents",
                "/api/v1/workspaces/demo/incidents/INC-1", 201, null);
    }
}
