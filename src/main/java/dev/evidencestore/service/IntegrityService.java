package dev.evidencestore.service;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.DamagedArtifact;
import dev.evidencestore.domain.IntegrityReport;
import dev.evidencestore.domain.IntegrityTotals;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.persistence.BlobIntegrityEntity;
import dev.evidencestore.persistence.ScrubPassEntity;
import dev.evidencestore.security.Actor;
import dev.evidencestore.security.CurrentActor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Set;

/**
 * What the checks of stored bytes found, for people deciding what to restore: every damaged artifact the caller
 * may see, with everything that rests on it, and the store's totals.
 */
@ApplicationScoped
public class IntegrityService {

    private final EntityManager entityManager;
    private final ReferrerService referrers;
    private final CurrentActor actor;
    private final Set<String> publicWorkspaces;

    IntegrityService(EntityManager entityManager, ReferrerService referrers, CurrentActor actor,
                     EvidenceConfig config) {
        this.entityManager = entityManager;
        this.referrers = referrers;
        this.actor = actor;
        this.publicWorkspaces = config.publicReadWorkspaces().orElse(Set.of());
    }

    /**
     * Damaged artifacts in the workspaces the caller may read (public ones included), damaged longest first. The
     * totals cover the whole store: they are what the readiness check and the metrics publish anyway.
     */
    @Transactional
    public IntegrityReport report() {
        Actor caller = actor.get();
        List<DamagedArtifact> damaged = entityManager.createQuery("""
                        select a, i from ArtifactEntity a join fetch a.incident n join fetch a.blob b
                        join BlobIntegrityEntity i on i.digest = b.digest
                        where i.damaged = true
                        order by i.damagedSince, n.workspace, n.key, a.name""", Object[].class)
                .getResultStream()
                .filter(row -> visible(caller, ((ArtifactEntity) row[0]).incident.workspace))
                .map(row -> damaged(((ArtifactEntity) row[0]).toArtifact(), (BlobIntegrityEntity) row[1]))
                .toList();
        return new IntegrityReport(totals(), damaged);
    }

    private DamagedArtifact damaged(Artifact artifact, BlobIntegrityEntity check) {
        return new DamagedArtifact(artifact.id(), artifact.digest(), check.computed(), check.damagedSince,
                check.checkedAt, referrers.referrers(artifact.id()));
    }

    private boolean visible(Actor caller, String workspace) {
        return publicWorkspaces.contains(workspace) || caller.mayRead() && caller.holds(Workspace.parse(workspace));
    }

    private static IntegrityTotals totals() {
        return BlobIntegrityEntity.totals();
    }
}
