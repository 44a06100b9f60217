package dev.evidencestore.audit;

/**
 * Checks the audit chain one entry at a time, in {@code seq} order, and names the first broken entry.
 *
 * <p>An entry whose content no longer hashes to its {@code entryHash} is itself the broken one. An entry that hashes
 * correctly but whose {@code prevHash} is not the previous entry's {@code entryHash} shows that one of the two was
 * rewritten and its hash recomputed; the next entry tells which. If that one links to it, the previous entry changed
 * (its successor still holds its old hash); if it does not link either, this entry's own {@code prevHash} changed.
 * The last entry has no successor to ask, so a bad link there is put on the entry before it.
 */
final class ChainWalk {

    private long entries;
    private AuditEntry previous;
    /** An entry that hashes correctly but does not link to the one before it, not yet attributed. */
    private Long unlinked;
    private ChainBreak broken;

    void next(AuditEntry entry) {
        entries++;
        if (broken == null) {
            check(entry);
        }
        previous = entry;
    }

    /** The first broken entry, or null when the whole chain holds. */
    ChainBreak finish() {
        if (broken == null && unlinked != null) {
            broken = rewritten(unlinked - 1);
        }
        return broken;
    }

    long entries() {
        return entries;
    }

    private void check(AuditEntry entry) {
        long expected = previous == null ? 1 : previous.seq() + 1;
        boolean linked = entry.prevHash().equals(previous == null ? ChainHash.GENESIS : previous.entryHash());
        if (unlinked != null) {
            broken = linked && entry.seq() == expected ? rewritten(unlinked - 1)
                    : new ChainBreak(unlinked, "entry " + unlinked + " links to neither neighbour: its prevHash was "
                    + "rewritten and its hash recomputed");
        } else if (entry.seq() != expected) {
            broken = new ChainBreak(expected, "entry " + expected + " is missing: the chain goes from entry "
                    + (expected - 1) + " to entry " + entry.seq());
        } else if (!entry.computedHash().equals(entry.entryHash())) {
            broken = new ChainBreak(entry.seq(), "entry " + entry.seq() + " does not hash to its entryHash: it was "
                    + "changed after it was written");
        } else if (!linked && previous == null) {
            broken = new ChainBreak(entry.seq(), "entry 1 does not start the chain: its prevHash is not "
                    + ChainHash.GENESIS);
        } else if (!linked) {
            unlinked = entry.seq();
        }
    }

    private static ChainBreak rewritten(long seq) {
        return new ChainBreak(seq, "entry " + (seq + 1) + " does not link to entry " + seq + ": entry " + seq
                + " was rewritten and its hash recomputed");
    }
}
