package dev.evidencestore.audit;

import dev.evidencestore.domain.Page;
import dev.evidencestore.domain.PageCursor;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.AuditEntryEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Parameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.util.List;

/** The append-only, hash-chained record of every write the service was asked for. */
@ApplicationScoped
public class AuditLog {

    private final AuditWriter writer;

    AuditLog(AuditWriter writer) {
        this.writer = writer;
    }

    /**
     * Appends an entry after whatever the request did has committed or rolled back, and returns it once it has
     * committed itself. Appends from concurrent requests are committed together (see {@link AuditWriter}).
     */
    public AuditEntry append(AuditEvent event) {
        return writer.append(event);
    }

    /** A workspace's entries, oldest first; {@code after} is the cursor of the previous page, or null for the first. */
    @Transactional
    public Page<AuditEntry> list(Workspace workspace, int limit, PageCursor after) {
        Parameters parameters = Parameters.with("workspace", workspace.slug())
                .and("after", after == null ? 0L : after.id());
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

    /** Up to {@code limit} entries with {@code after < seq <= upTo}, in order, read in a transaction of their own. */
    List<AuditEntry> range(long after, long upTo, int limit) {
        return QuarkusTransaction.requiringNew().call(() -> AuditEntryEntity.<AuditEntryEntity>find(
                        "seq > ?1 and seq <= ?2 order by seq", after, upTo).range(0, limit - 1).stream()
                .map(AuditEntry::of).toList());
    }

    /** The last entry, or null while the chain is empty. Under the chain lock it stays the head until commit. */
    static AuditEntryEntity head() {
        return AuditEntryEntity.<AuditEntryEntity>find("order by seq desc").firstResult();
    }
}
