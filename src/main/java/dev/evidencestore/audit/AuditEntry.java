package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditEntryEntity;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One link of the audit chain. {@code entryHash} is the SHA-256 of the entry's canonical JSON, which holds every
 * other field, {@code prevHash} included; so changing any entry, or the order of entries, breaks the chain there.
 */
public record AuditEntry(long seq, Instant at, String actor, String workspace, String method, String path,
                         String target, int status, String problem, boolean replayed, String prevHash,
                         String entryHash) {

    /** The entry a row of the chain holds. */
    static AuditEntry of(AuditEntryEntity row) {
        return new AuditEntry(row.seq, row.at, row.actor, row.workspace, row.method, row.path, row.target, row.status,
                row.problem, row.replayed, row.prevHash, row.entryHash);
    }

    /** The row that holds this entry. */
    AuditEntryEntity toRow() {
        AuditEntryEntity row = new AuditEntryEntity();
        row.seq = seq;
        row.at = at;
        row.actor = actor;
        row.workspace = workspace;
        row.method = method;
        row.path = path;
        row.target = target;
        row.status = status;
        row.problem = problem;
        row.replayed = replayed;
        row.prevHash = prevHash;
        row.entryHash = entryHash;
        return row;
    }

    /**
     * The entry that follows {@code prevHash} as number {@code seq}, without its hash: {@link #canonicalJson()} is
     * its leaf, and {@link #hashed} completes it from those bytes, so that they are made once.
     */
    static AuditEntry unhashed(long seq, Instant at, AuditEvent event, String prevHash) {
        return new AuditEntry(seq, at, event.actor(), event.workspace(), event.method(), event.path(), event.target(),
                event.status(), event.problem(), event.replayed(), prevHash, null);
    }

    /** The entry that follows {@code prevHash} as number {@code seq}, with its hash computed. */
    static AuditEntry chain(long seq, Instant at, AuditEvent event, String prevHash) {
        AuditEntry unhashed = unhashed(seq, at, event, prevHash);
        return unhashed.hashed(unhashed.canonicalJson());
    }

    /** This entry with its hash, given its {@link #canonicalJson()}. */
    AuditEntry hashed(byte[] canonicalJson) {
        return new AuditEntry(seq, at, actor, workspace, method, path, target, status, problem, replayed, prevHash,
                ChainHash.of(canonicalJson));
    }

    /**
     * The RFC 8785 canonical JSON of every field but {@code entryHash}, with the names the API uses; {@code at} is
     * written as the API writes it (ISO-8601 UTC, microseconds at most, trailing zero groups dropped). {@code replayed}
     * is a member only when true, as in the API, so entries written before it existed hash as they always did.
     */
    byte[] canonicalJson() {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("seq", seq);
        members.put("at", at.toString());
        members.put("actor", actor);
        members.put("workspace", workspace);
        members.put("method", method);
        members.put("path", path);
        members.put("target", target);
        members.put("status", status);
        members.put("problem", problem);
        if (replayed) {
            members.put("replayed", true);
        }
        members.put("prevHash", prevHash);
        return CanonicalJson.of(members);
    }

    String computedHash() {
        return ChainHash.of(canonicalJson());
    }
}
