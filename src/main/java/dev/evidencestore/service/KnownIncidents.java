package dev.evidencestore.service;

import com.github.benmanes.caffeine.cache.Cache;
import dev.evidencestore.Caches;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.util.OptionalLong;

/**
 * The row of each incident by its workspace and key, for writes that need only the row's ID (an artifact's binding).
 * An incident's identity is permanent and its row is never deleted (the database refuses both), so an ID seen by a
 * committed transaction stays right for ever and on every instance. An ID enters only once the transaction that read
 * it has committed: a transaction that created the incident and then rolled back leaves nothing behind.
 */
@ApplicationScoped
public class KnownIncidents {

    private final Cache<Name, Long> ids;
    private final TransactionSynchronizationRegistry transactions;

    KnownIncidents(EvidenceConfig config, TransactionSynchronizationRegistry transactions) {
        this.transactions = transactions;
        this.ids = Caches.builder().maximumSize(config.cache().incidents()).build();
    }

    /** The committed ID, or the one the current transaction has already read. */
    OptionalLong known(Workspace workspace, IncidentKey key) {
        Name name = new Name(workspace, key);
        Long id = ids.getIfPresent(name);
        if (id == null && transactions.getTransactionKey() != null) {
            id = (Long) transactions.getResource(name);
        }
        return id == null ? OptionalLong.empty() : OptionalLong.of(id);
    }

    /** Keeps {@code id} for the rest of the current transaction, and for good once it commits. */
    void seen(Workspace workspace, IncidentKey key, long id) {
        Name name = new Name(workspace, key);
        if (transactions.getResource(name) != null) {
            return;
        }
        transactions.putResource(name, id);
        AfterCommit.run(transactions, () -> ids.put(name, id));
    }

    private record Name(Workspace workspace, IncidentKey key) {
    }
}
