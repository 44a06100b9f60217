package dev.evidencestore.service;

import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.integrity.BlobIntegrity;
import dev.evidencestore.persistence.VerificationEntity;
import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.storage.BlobStore;
import dev.evidencestore.storage.ReadAhead;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;

@ApplicationScoped
public class VerificationService {

    private static final Logger LOG = Logger.getLogger(VerificationService.class);

    private final ArtifactService artifacts;
    private final BlobStore store;
    private final CurrentActor actor;
    private final BlobIntegrity integrity;

    VerificationService(ArtifactService artifacts, BlobStore store, CurrentActor actor, BlobIntegrity integrity) {
        this.actor = actor;
        this.integrity = integrity;
        this.artifacts = artifacts;
        this.store = store;
    }

    /**
     * Re-reads the stored bytes and recomputes their digest, outside any transaction; {@link #record} records it.
     * Unreadable bytes are a failed verification, not an error: that is exactly what a reviewer needs to learn.
     * Like every re-reading of stored bytes, it is also recorded as the blob's integrity check, so bytes it finds
     * damaged are refused to readers from now on.
     */
    public Rehashed rehash(ArtifactId id, Digest claimed) {
        Artifact artifact = artifacts.get(id);
        Digest computed = rehash(artifact, "a verification of " + id);
        boolean verified = computed != null && VerificationResult.agrees(artifact.digest(), computed, claimed);
        if (!verified) {
            LOG.warnf("verification of %s failed: recorded %s, computed %s, claimed %s", id, artifact.digest(),
                    computed, claimed);
        }
        return new Rehashed(artifact, computed, claimed, verified);
    }

    /** What re-reading an artifact's stored bytes found, to be recorded as its verification. */
    public record Rehashed(Artifact artifact, Digest computed, Digest claimed, boolean verified) {
    }

    /** Records a verification, in the current transaction or a new one. */
    @Transactional
    public VerificationResult record(Rehashed rehashed) {
        return record(rehashed.artifact(), rehashed.computed(), rehashed.claimed(), rehashed.verified());
    }

    /** What the stored bytes hash to (null: unreadable), recorded as the blob's integrity check. */
    private Digest rehash(Artifact artifact, String checkedBy) {
        Digest computed;
        Instant readFrom = Clock.now();
        // the next block is fetched (a query, an S3 read) while the current one is hashed
        try (InputStream in = ReadAhead.of(store.stored().open(artifact.digest()), artifact.size())) {
            computed = Digest.of(in);
        } catch (IOException | RuntimeException e) {
            LOG.errorf(e, "stored bytes of %s (%s) could not be read", artifact.id(), artifact.digest());
            // a lost database connection says nothing about the bytes: no reader should be refused them for it
            if (!BlobIntegrity.databaseFailed(e)) {
                integrity.record(artifact.digest(), null, checkedBy, readFrom);
            }
            return null;
        }
        integrity.record(artifact.digest(), computed, checkedBy, readFrom);
        return computed;
    }

    private VerificationResult record(Artifact artifact, Digest computed, Digest claimed, boolean verified) {
        VerificationEntity row = new VerificationEntity();
        row.artifact = artifacts.row(artifact.id());
        row.recordedDigest = artifact.digest().toString();
        row.computedDigest = computed == null ? null : computed.toString();
        row.claimedDigest = claimed == null ? null : claimed.toString();
        row.verified = verified;
        row.verifiedAt = Clock.now();
        row.verifiedBy = actor.name();
        row.verifiedByPrincipal = actor.principal();
        row.persist();
        return row.toResult(artifact.id());
    }

    @Transactional
    public List<VerificationResult> list(ArtifactId id) {
        artifacts.get(id);
        return VerificationEntity.<VerificationEntity>find("""
                        artifact.incident.workspace = ?1 and artifact.incident.key = ?2 and artifact.name = ?3
                        order by verifiedAt, id""", id.workspace().slug(), id.incident().value(), id.name().value())
                .stream().map(row -> row.toResult(id)).toList();
    }

    /** Every verification of every artifact of one incident, oldest first, in one query. */
    @Transactional
    public Map<ArtifactId, List<VerificationResult>> listForIncident(Workspace workspace, IncidentKey key) {
        return VerificationEntity.ofIncident(workspace, key);
    }
}
