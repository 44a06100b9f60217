package dev.evidencestore.service;

import com.github.benmanes.caffeine.cache.Cache;
import dev.evidencestore.Caches;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactId;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;

import java.util.Optional;

/**
 * Artifacts by ID, each read from the database once. An artifact never changes and is never removed once bound (the
 * database refuses UPDATE and DELETE of its row), so a copy read after its binding committed stays right for ever
 * and on every instance; only IDs that exist are kept, so a later binding of an unknown name is seen at once.
 */
@ApplicationScoped
public class BoundArtifacts {

    private final Cache<ArtifactId, Artifact> byId;

    BoundArtifacts(EvidenceConfig config) {
        this.byId = Caches.builder().maximumSize(config.cache().artifacts()).build();
    }

    /** The artifact if it was read before; empty otherwise, without asking the database. */
    Optional<Artifact> known(ArtifactId id) {
        return Optional.ofNullable(byId.getIfPresent(id));
    }

    /** The artifact, or a 404 refusal when no artifact has that ID. */
    public Artifact get(ArtifactId id) {
        Artifact known = byId.getIfPresent(id);
        if (known != null) {
            return known;
        }
        if (QuarkusTransaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
            // the caller's transaction may have bound it and may yet roll back: keep only what a committed read saw
            return ArtifactService.find(id);
        }
        return byId.get(id, key -> QuarkusTransaction.requiringNew().call(() -> ArtifactService.find(key)));
    }
}
