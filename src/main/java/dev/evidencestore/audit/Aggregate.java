package dev.evidencestore.audit;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Refused requests of one client, recorded as one entry rather than one each: the client's address, how many there
 * were, when the first and the last came, and the distinct operations they asked for, such as
 * {@code POST /api/v1/artifacts/{id}/verifications} (at most {@link #MAX_OPERATIONS}; requests for operations
 * beyond those are counted in {@code unlisted}). A flood so costs one entry per window, whatever its size.
 */
public record Aggregate(String client, long count, Instant first, Instant last, List<String> operations,
                        long unlisted) {

    /** The most distinct operations one aggregate lists. */
    public static final int MAX_OPERATIONS = 8;
    /** The most bytes of UTF-8 one listed operation keeps: an HTTP method and one of the service's templates. */
    public static final int MAX_OPERATION_BYTES = 128;

    public Aggregate {
        operations = List.copyOf(operations);
    }

    /** This aggregate with its client's address cut, for an entry that records the truncation. */
    Aggregate withClient(String cut) {
        return new Aggregate(cut, count, first, last, operations, unlisted);
    }

    /** The members of this aggregate in an entry's canonical JSON. */
    Map<String, Object> members() {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("client", client);
        members.put("count", count);
        members.put("first", first.toString());
        members.put("last", last.toString());
        members.put("operations", operations);
        members.put("unlisted", unlisted);
        return members;
    }

    /** The aggregate these members describe, as {@link #members()} wrote them. */
    static Aggregate of(Map<?, ?> members) {
        List<String> operations = ((List<?>) members.get("operations")).stream().map(String.class::cast).toList();
        return new Aggregate((String) members.get("client"), ((Number) members.get("count")).longValue(),
                Instant.parse((String) members.get("first")), Instant.parse((String) members.get("last")),
                operations, ((Number) members.get("unlisted")).longValue());
    }
}
