package dev.evidencestore.integrity;

import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.persistence.BlobIntegrityEntity;
import dev.evidencestore.storage.BlobStore;
import dev.evidencestore.storage.CheckedInput;
import dev.evidencestore.storage.ReadAhead;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What re-reading stored blobs found: the scrub, whole downloads and verifications each record here whether the
 * bytes still hash to their digest. Bytes found damaged are not served again until a later check finds them sound,
 * as after they are restored from a backup.
 */
@ApplicationScoped
public class BlobIntegrity {

    private static final Logger LOG = Logger.getLogger(BlobIntegrity.class);

    private final BlobStore store;
    private final IntegrityStatus status;

    BlobIntegrity(BlobStore store, IntegrityStatus status) {
        this.store = store;
        this.status = status;
    }

    /**
     * Records one check in a transaction of its own: the bytes stored under {@code digest}, read from
     * {@code readFrom} on, hashed to {@code computed} (null: they could not be read). Damage is logged loudly every
     * time it is seen. Intact bytes clear recorded damage only when their read began after the damage was last
     * found: a scrub that read the bytes before they changed must not restore what a download found damaged since.
     * Returns whether the blob is damaged as recorded.
     */
    public boolean record(Digest digest, Digest computed, String foundBy, Instant readFrom) {
        boolean damaged = !digest.equals(computed);
        Recorded recorded = QuarkusTransaction.requiringNew().call(() -> upsert(digest, computed, damaged, readFrom));
        if (recorded.stale()) {
            LOG.warnf("a check of %s by %s that began at %s, before its damage was last found, read intact bytes; "
                    + "the damage stands until a check begun later finds them intact", digest, foundBy, readFrom);
            return true;
        }
        if (damaged) {
            LOG.errorf("EVIDENCE DAMAGED: the stored bytes of %s %s (found by %s); bound as %s. They are refused to "
                            + "readers until restored from a backup; GET /api/v1/integrity lists what cites them",
                    digest, computed == null ? "could not be read" : "hash to " + computed, foundBy,
                    recorded.boundAs().isEmpty() ? "no artifact" : String.join(", ", recorded.boundAs()));
        } else if (recorded.wasDamaged()) {
            LOG.warnf("evidence restored: the stored bytes of %s hash to their digest again (found by %s); they are "
                    + "served again", digest, foundBy);
        }
        if (damaged != recorded.wasDamaged()) {
            status.refresh();
        }
        return damaged;
    }

    private Recorded upsert(Digest digest, Digest computed, boolean damaged, Instant readFrom) {
        BlobIntegrityEntity previous = BlobIntegrityEntity.findById(digest.toString(), LockModeType.PESSIMISTIC_WRITE);
        boolean wasDamaged = previous != null && previous.damaged;
        if (!damaged && wasDamaged && !readFrom.isAfter(previous.checkedAt)) {
            return new Recorded(true, true, List.of());
        }
        Instant at = Clock.now();
        BlobIntegrityEntity.record(digest.toString(), at, damaged, computed == null ? null : computed.toString());
        return new Recorded(false, wasDamaged, damaged ? boundAs(digest) : List.of());
    }

    private static List<String> boundAs(Digest digest) {
        return ArtifactEntity.<ArtifactEntity>find("from ArtifactEntity a join fetch a.incident "
                        + "where a.blob.digest = ?1", digest.toString())
                .stream().map(row -> row.artifactId().toString()).sorted().toList();
    }

    /**
     * Refuses to serve bytes that their last check found damaged, as {@link IntegrityStatus} last read them; only
     * before it could read them once does this ask the database.
     */
    public void refuseIfDamaged(Digest digest) {
        refuseIfAnyDamaged(List.of(digest));
    }

    public void refuseIfAnyDamaged(Collection<Digest> digests) {
        Map<String, Instant> damaged = status.known().map(IntegrityStatus.Known::damaged).orElse(null);
        for (Digest digest : digests.stream().sorted(Comparator.comparing(Digest::toString)).toList()) {
            Instant since = damaged != null ? damaged.get(digest.toString()) : damagedSince(digest);
            if (since != null) {
                throw new Refusal(ProblemType.EVIDENCE_DAMAGED, "the stored bytes of " + digest
                        + " no longer hash to that digest (damaged since " + since
                        + "); they are not served until they are restored from a backup")
                        .with("digest", digest.toString())
                        .with("damagedSince", since.toString());
            }
        }
    }

    /**
     * Whether the damaged list as last read clears {@code digest}, without asking the database; false also when the
     * list has not been read yet, so that the caller takes the way that asks.
     */
    public boolean knownUndamaged(Digest digest) {
        return status.known().map(known -> !known.damaged().containsKey(digest.toString())).orElse(false);
    }

    private static Instant damagedSince(Digest digest) {
        return QuarkusTransaction.joiningExisting().call(() -> {
            BlobIntegrityEntity row = BlobIntegrityEntity.findById(digest.toString());
            return row != null && row.damaged ? row.damagedSince : null;
        });
    }

    /**
     * The whole blob, hashed as it streams: bytes that no longer match their digest are recorded as damaged, and the
     * stream fails before it hands out their last bytes.
     */
    public InputStream openChecked(Digest digest, long size, String reader) throws IOException {
        Instant readFrom = Clock.now();
        return checked(store.open(digest, 0, size), digest, size, reader, readFrom);
    }

    /**
     * As {@link #openChecked}, with the store read a block ahead on another thread ({@link ReadAhead}), so that
     * fetching the bytes (an S3 response's decryption) and hashing them run on two cores.
     */
    public InputStream openCheckedFetchingAhead(Digest digest, long size, String reader) throws IOException {
        Instant readFrom = Clock.now();
        return checked(ReadAhead.of(store.open(digest, 0, size), size), digest, size, reader, readFrom);
    }

    private InputStream checked(InputStream stored, Digest digest, long size, String reader, Instant readFrom) {
        return new CheckedInput(stored, digest, size, computed -> record(digest, computed, reader, readFrom));
    }

    /**
     * Whether reading failed because the database did (the postgres backend's chunks), which says nothing about the
     * bytes: such a failure must not be recorded as damage.
     */
    public static boolean databaseFailed(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    /** Whether the bytes were damaged before this check, and the artifacts that bind them when they are now. */
    /** {@code stale}: intact bytes read before the damage was last found, which leave the record as it was. */
    private record Recorded(boolean stale, boolean wasDamaged, List<String> boundAs) {
    }
}
