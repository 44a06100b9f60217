package dev.evidencestore.audit;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Page;
import dev.evidencestore.domain.PageCursor;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.AuditEntryEntity;
import dev.evidencestore.persistence.AuditPendingEntity;
import dev.evidencestore.persistence.AuditTreeNodes;
import dev.evidencestore.security.Actor;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * The append-only record of every write the service was asked for. An entry is written with its write, in the
 * write's transaction, so no write commits without it; the sequencer then gives it its place in the hash chain and
 * the Merkle tree (see {@link AuditSequencer}).
 */
@ApplicationScoped
public class AuditLog {

    private static final Logger LOG = Logger.getLogger(AuditLog.class);
    /** How long a request waits for its entry's place in the log before it is answered anyway. */
    private static final Duration SEQUENCING_WAIT = Duration.ofSeconds(10);

    private final AuditSequencer sequencer;
    private final RefusalEntries refusals;
    private final Set<String> publicWorkspaces;

    AuditLog(AuditSequencer sequencer, RefusalEntries refusals, EvidenceConfig config) {
        this.sequencer = sequencer;
        this.refusals = refusals;
        this.publicWorkspaces = config.publicReadWorkspaces().orElse(Set.of());
    }

    /** Writes {@code event}'s entry in the current transaction: it commits, or rolls back, with the write. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void record(AuditEvent event) {
        event.toPending(Clock.now()).insert();
    }

    /** Writes the entries of {@code events}, in their order, in the current transaction, in one JDBC batch. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void recordAll(List<AuditEvent> events) {
        Instant now = Clock.now();
        AuditPendingEntity.insert(events.stream().map(event -> event.toPending(now)).toList());
    }

    /**
     * Writes {@code event}'s entry in a transaction of its own, for what changed nothing (a refusal, a replay) or
     * committed on its own.
     */
    public void append(AuditEvent event) {
        QuarkusTransaction.requiringNew().run(() -> record(event));
    }

    /**
     * Waits until the entries committed so far have their place in the log. Every read of the log waits so, not
     * the writes: an entry is durable once its write committed, and the sequencer numbers entries in batches, a
     * transaction and a lock per batch rather than per write; a client that got its answer still finds its entry
     * in any read that follows. If the wait runs out, the entries stay pending and are sequenced later. Never called
     * under the chain lock, which the sequencer needs: a leaf or a proof asked for by index or size is of entries a
     * checkpoint or a listing already showed, and needs no wait. Refusals queued before the call are written first
     * ({@link RefusalEntries}).
     */
    public void awaitSequenced() {
        if (!refusals.awaitWritten(SEQUENCING_WAIT)) {
            LOG.warnf("entries of refusals were not written within %s; they stay queued", SEQUENCING_WAIT);
        }
        if (!sequencer.awaitSequenced(SEQUENCING_WAIT)) {
            LOG.warnf("audit entries were not sequenced within %s; they are durable and stay pending",
                    SEQUENCING_WAIT);
        }
    }

    /**
     * The leaf index of the entry of the write with this request ID ({@link EntryLink}), in the current transaction;
     * empty while the entry waits for its place in the log.
     */
    @Transactional
    public OptionalLong leafIndexOf(UUID requestId) {
        Long seq = AuditEntryEntity.seqOf(requestId);
        return seq == null ? OptionalLong.empty() : OptionalLong.of(seq - 1);
    }

    /** A workspace's entries, oldest first; {@code after} is the cursor of the previous page, or null for the first. */
    public Page<AuditEntry> list(Workspace workspace, int limit, PageCursor after) {
        awaitSequenced();
        return QuarkusTransaction.joiningExisting().call(() -> page(workspace, limit, after));
    }

    private static Page<AuditEntry> page(Workspace workspace, int limit, PageCursor after) {
        Map<String, Object> parameters = Map.of("workspace", workspace.slug(),
                "after", after == null ? 0L : after.id());
        // range is inclusive: one row more than the page tells whether another page follows
        List<AuditEntryEntity> rows = AuditEntryEntity.<AuditEntryEntity>find(
                "workspace = :workspace and seq > :after order by seq", parameters).range(0, limit).list();
        List<AuditEntry> items = rows.stream().limit(limit).map(AuditEntry::of).toList();
        PageCursor next = null;
        if (rows.size() > limit) {
            AuditEntryEntity last = rows.get(limit - 1);
            next = new PageCursor(last.at, last.seq);
        }
        return new Page<>(items, next);
    }

    /**
     * The leaf bytes of tree leaf {@code index}, the entry of {@code seq} {@code index + 1}: its canonical JSON, whose
     * RFC 6962 leaf hash is in the tree. Entries are scoped like the audit pages: one of a workspace the caller
     * cannot read, or without a workspace for a token limited to some, does not exist for the caller.
     */
    @Transactional
    public byte[] leaf(long index, Actor caller) {
        AuditEntryEntity row = index < 0 || index >= AuditTreeNodes.leafCount() ? null
                : AuditEntryEntity.findById(index + 1);
        if (row == null || !readable(row.workspace, caller)) {
            throw Refusal.notFound("no audit entry at leaf index " + index);
        }
        return AuditEntry.of(row).canonicalJson();
    }

    private boolean readable(String workspace, Actor caller) {
        if (workspace == null) {
            return !caller.anonymous() && caller.mayRead() && caller.workspaces() == null;
        }
        return publicWorkspaces.contains(workspace) || caller.mayRead() && caller.holds(Workspace.parse(workspace));
    }

    /** Up to {@code limit} entries with {@code after < seq <= upTo}, in order, read in a transaction of their own. */
    List<AuditEntry> range(long after, long upTo, int limit) {
        return QuarkusTransaction.requiringNew().call(() -> entries(after, upTo, limit));
    }

    /** Up to {@code limit} entries with {@code after < seq <= upTo}, in order, in the current transaction. */
    static List<AuditEntry> entries(long after, long upTo, int limit) {
        return AuditEntryEntity.<AuditEntryEntity>find("seq > ?1 and seq <= ?2 order by seq", after, upTo)
                .range(0, limit - 1).stream().map(AuditEntry::of).toList();
    }
}
