package dev.evidencestore.audit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The refusals of the current window that are recorded as aggregates, one per client address, actor, status and
 * problem. Bounded: beyond {@code maxClients} tallies, a new client's refusals are counted under the client
 * {@value #OTHER_CLIENTS} (and actor {@value #OTHER_CLIENTS}), so a flood from many addresses holds no more.
 * Not thread-safe: {@link RefusalEntries} holds its lock around every call.
 */
final class RefusalTallies {

    /** The client (and actor) of the aggregate of every refusal beyond the bound of tallies. */
    static final String OTHER_CLIENTS = "*";

    private final int maxClients;
    private final Map<Key, Tally> tallies = new LinkedHashMap<>();

    RefusalTallies(int maxClients) {
        this.maxClients = maxClients;
    }

    void count(String client, String actor, int status, String problem, String operation, Instant at) {
        Key key = new Key(printable(Objects.requireNonNullElse(client, OTHER_CLIENTS)), actor, status, problem);
        if (!tallies.containsKey(key) && tallies.size() >= maxClients) {
            key = new Key(OTHER_CLIENTS, OTHER_CLIENTS, status, problem);
        }
        tallies.computeIfAbsent(key, k -> new Tally(at)).add(operation, at);
    }

    /** The aggregate events of everything counted, and a fresh start. */
    List<AuditEvent> drain() {
        List<AuditEvent> events = new ArrayList<>(tallies.size());
        tallies.forEach((key, tally) -> events.add(AuditEvent.aggregated(key.actor(), key.status(), key.problem(),
                tally.aggregate(key.client()))));
        tallies.clear();
        return events;
    }

    /**
     * An address or operation as printable ASCII that JSON writes as it is: a peer address and an operation's name
     * are that already, and a forwarded address that is not cannot make the entry larger than its bound.
     */
    private static String printable(String text) {
        StringBuilder printable = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            printable.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? c : '?');
        }
        return printable.toString();
    }

    private record Key(String client, String actor, int status, String problem) {
    }

    /** One aggregate as it grows. */
    private static final class Tally {

        private final Instant first;
        private Instant last;
        private long count;
        private final Set<String> operations = new LinkedHashSet<>();
        private long unlisted;

        Tally(Instant first) {
            this.first = first;
            this.last = first;
        }

        void add(String operation, Instant at) {
            count++;
            last = at;
            String named = Truncation.cut(printable(operation), Aggregate.MAX_OPERATION_BYTES);
            if (!operations.contains(named) && operations.size() == Aggregate.MAX_OPERATIONS) {
                unlisted++;
            } else {
                operations.add(named);
            }
        }

        Aggregate aggregate(String client) {
            return new Aggregate(client, count, first, last, new ArrayList<>(operations), unlisted);
        }
    }
}
