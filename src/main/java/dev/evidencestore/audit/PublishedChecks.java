package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditTreeCheckpointEntity;
import dev.evidencestore.persistence.AuditTreeNodes;
import dev.evidencestore.storage.Anchor;
import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.MalformedInput;
import dev.evidencestore.verify.SignedNote;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Checks the log against every checkpoint published outside the database, read back from the anchor a page of
 * names at a time: what the database cannot rewrite is what catches a database rewritten with its checkpoints, such
 * as entries removed together with every stored checkpoint that covered them. Also counts the stored checkpoints
 * that were never published: not a break (a publish may be pending or failing, which is logged), but the log is
 * anchored only up to the last one published.
 */
@ApplicationScoped
class PublishedChecks {

    private static final int PAGE = 500;

    private final Anchor anchor;
    private final CheckpointChecks checks;
    private final TrustedKeys keys;

    PublishedChecks(Anchor anchor, CheckpointChecks checks, TrustedKeys keys) {
        this.anchor = anchor;
        this.checks = checks;
        this.keys = keys;
    }

    /** How many published checkpoints were checked, how many stored ones are unpublished (null: publishing is off). */
    record Checked(long count, Long unpublished, ChainBreak broken) {
    }

    Checked all(long treeUpTo, long leaves) {
        if (!anchor.enabled()) {
            return new Checked(0, null, null);
        }
        long count = 0;
        ChainBreak first = null;
        try {
            // every name of a checkpoint sorts after the bare prefix, and they are all together
            String after = PublishedName.PREFIX;
            List<String> page;
            do {
                page = anchor.names(after, PAGE);
                for (String name : page) {
                    if (!name.startsWith(PublishedName.PREFIX)) {
                        return new Checked(count, unpublished(treeUpTo), first);
                    }
                    after = name;
                    Optional<PublishedName> named = PublishedName.parse(name);
                    if (named.isPresent() && publishedSince(named.get(), leaves)) {
                        continue;
                    }
                    count++;
                    ChainBreak broken = published(name, named, leaves);
                    first = first != null ? first : broken;
                }
            } while (page.size() == PAGE);
            return new Checked(count, unpublished(treeUpTo), first);
        } catch (IOException e) {
            return new Checked(count, null, new ChainBreak(null, "the published checkpoints at " + anchor.locate("")
                    + " could not be read (" + e.getMessage() + "): the log was not checked against them"));
        }
    }

    /**
     * Whether a checkpoint covers entries added while the log was walked, and was published meanwhile: left for the
     * next run. A checkpoint over more entries than the log has now is no such thing, and is checked (a break).
     */
    private static boolean publishedSince(PublishedName named, long leaves) {
        return named.size() > leaves && QuarkusTransaction.requiringNew().call(AuditTreeNodes::leafCount)
                >= named.size();
    }

    private ChainBreak published(String name, Optional<PublishedName> named, long leaves) throws IOException {
        String which = "the published checkpoint " + anchor.locate(name);
        if (named.isEmpty()) {
            return new ChainBreak(null, which + " is not named checkpoint-<20-digit tree size>-<key id>");
        }
        HeldCheckpoint held;
        try {
            SignedNote note = SignedNote.parse(anchor.read(name));
            held = new HeldCheckpoint(note, Checkpoint.parse(note.body()));
        } catch (MalformedInput e) {
            return new ChainBreak(null, which + " is not a C2SP signed checkpoint: " + e.getMessage());
        }
        long size = held.checkpoint().size();
        if (size != named.get().size()) {
            return new ChainBreak(null, which + " covers " + size + " entries, not the " + named.get().size()
                    + " its name says: it was replaced");
        }
        ChainBreak broken = QuarkusTransaction.requiringNew().call(() -> checks.extended(held, which, leaves));
        if (broken != null) {
            return broken;
        }
        String signer = keys.signerOf(held.note()).orElseThrow().keyId();
        return signer.equals(named.get().keyId()) ? null : new ChainBreak(null, which + " is signed by key "
                + signer + ", not the " + named.get().keyId() + " its name says: it was replaced");
    }

    /** Stored checkpoints, one per name, with nothing published under their name. */
    private long unpublished(long treeUpTo) throws IOException {
        long missing = 0;
        long afterId = 0;
        String last = null;
        List<AuditTreeCheckpointEntity> page;
        do {
            long from = afterId;
            page = QuarkusTransaction.requiringNew().call(() -> AuditTreeCheckpointEntity.after(from, treeUpTo, PAGE));
            for (AuditTreeCheckpointEntity row : page) {
                String name = new PublishedName(row.treeSize, row.keyId).toString();
                if (!name.equals(last) && !anchor.holds(name)) {
                    missing++;
                }
                last = name;
                afterId = row.id;
            }
        } while (page.size() == PAGE);
        return missing;
    }
}
