package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditEntryEntity;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One link of the audit chain. {@code entryHash} is the SHA-256 of the entry's canonical JSON, which holds every
 * other field, {@code prevHash} included; so changing any entry, or the order of entries, breaks the chain there.
 * {@code truncated} names the values that were cut to the bound ({@link Truncation}); {@code aggregate} is set on an
 * entry that records many refused requests of one client ({@link Aggregate}).
 *
 * <p>Its canonical JSON is at most {@link #MAX_CANONICAL_BYTES} bytes, whatever the client sent.
 */
public record AuditEntry(long seq, Instant at, String actor, String workspace, String method, String path,
                         String target, int status, String problem, boolean replayed,
                         Map<String, Truncation> truncated, Aggregate aggregate, String prevHash, String entryHash) {

    /**
     * The most bytes an entry's canonical JSON takes: four values the client chose of at most
     * {@link Truncation#MAX_BYTES} bytes each (actor, method, path, target) written as JSON escapes at worst (six
     * bytes for a control character), their truncations, and an aggregate with its client and
     * {@link Aggregate#MAX_OPERATIONS} operations; {@code AuditEntrySizeTest} builds the largest entry there can be
     * and checks it fits.
     */
    public static final int MAX_CANONICAL_BYTES = 10_240;

    public AuditEntry {
        truncated = Map.copyOf(Objects.requireNonNullElse(truncated, Map.of()));
    }

    /** An entry of the first form: nothing cut, one request. */
    public AuditEntry(long seq, Instant at, String actor, String workspace, String method, String path,
                      String target, int status, String problem, boolean replayed, String prevHash,
                      String entryHash) {
        this(seq, at, actor, workspace, method, path, target, status, problem, replayed, Map.of(), null, prevHash,
                entryHash);
    }

    /** The entry a row of the chain holds. */
    static AuditEntry of(AuditEntryEntity row) {
        return new AuditEntry(row.seq, row.at, row.actor, row.workspace, row.method, row.path, row.target, row.status,
                row.problem, row.replayed, ExtraMembers.truncatedOf(row.truncated),
                ExtraMembers.aggregateOf(row.aggregate), row.prevHash, row.entryHash);
    }

    /**
     * The entry a row holds, given its columns as stored: {@code truncated} and {@code aggregate} as the canonical
     * JSON text of their rows, or null. For those who read rows themselves, such as a check of the tree's leaves.
     */
    public static AuditEntry ofColumns(long seq, Instant at, String actor, String workspace, String method,
                                       String path, String target, int status, String problem, boolean replayed,
                                       String truncated, String aggregate, String prevHash, String entryHash) {
        return new AuditEntry(seq, at, actor, workspace, method, path, target, status, problem, replayed,
                ExtraMembers.truncatedOf(truncated), ExtraMembers.aggregateOf(aggregate), prevHash, entryHash);
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
        row.truncated = ExtraMembers.truncatedText(truncated);
        row.aggregate = ExtraMembers.aggregateText(aggregate);
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
                event.status(), event.problem(), event.replayed(), event.truncated(), event.aggregate(), prevHash,
                null);
    }

    /** The entry that follows {@code prevHash} as number {@code seq}, with its hash computed. */
    static AuditEntry chain(long seq, Instant at, AuditEvent event, String prevHash) {
        AuditEntry unhashed = unhashed(seq, at, event, prevHash);
        return unhashed.hashed(unhashed.canonicalJson());
    }

    /** This entry with its hash, given its {@link #canonicalJson()}. */
    AuditEntry hashed(byte[] canonicalJson) {
        return new AuditEntry(seq, at, actor, workspace, method, path, target, status, problem, replayed, truncated,
                aggregate, prevHash, ChainHash.of(canonicalJson));
    }

    /**
     * The RFC 8785 canonical JSON of every field but {@code entryHash}, with the names the API uses; {@code at} is
     * written as the API writes it (ISO-8601 UTC, microseconds at most, trailing zero groups dropped). {@code replayed}
     * is a member only when true, as in the API, so entries written before it existed hash as they always did;
     * {@code truncated} and {@code aggregate} likewise only when present.
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
        ExtraMembers.addTo(members, truncated, aggregate);
        members.put("prevHash", prevHash);
        return CanonicalJson.of(members);
    }

    /** The {@code truncated} member as the canonical JSON has it, or null when nothing was cut. */
    public Map<String, Object> truncatedMembers() {
        return truncated.isEmpty() ? null : ExtraMembers.truncatedMembers(truncated);
    }

    /** The {@code aggregate} member as the canonical JSON has it, or null for the entry of one request. */
    public Map<String, Object> aggregateMembers() {
        return aggregate == null ? null : aggregate.members();
    }

    String computedHash() {
        return ChainHash.of(canonicalJson());
    }
}
