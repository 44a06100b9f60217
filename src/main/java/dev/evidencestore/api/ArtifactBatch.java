package dev.evidencestore.api;

import dev.evidencestore.domain.ArtifactDraft;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The items of one batch as its entries arrive: which are still waiting for their bytes, and what became of each.
 * An item whose declaration breaks the rules is refused at once (400) and its entry, when it comes, is passed over.
 */
final class ArtifactBatch {

    /** An item waiting for its entry, with its declaration already checked. */
    record Pending(String path, ArtifactDraft draft) {
    }

    private final List<String> order = new ArrayList<>();
    private final Set<String> declared = new HashSet<>();
    private final Set<String> arrived = new HashSet<>();
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    /** Written by the thread that binds a group too (ReceivedItems), while this one reads the next entries. */
    private final Map<String, ArtifactBatchResult> results = new ConcurrentHashMap<>();
    private final List<ArtifactBatchResult> strays = new ArrayList<>();

    ArtifactBatch(List<ArtifactBatchItem> items) {
        for (int i = 0; i < items.size(); i++) {
            ArtifactBatchItem item = items.get(i);
            String path = item.path();
            if (path == null || path.isBlank() || BatchArchive.MANIFEST.equals(path)) {
                throw Refusal.invalid(BatchArchive.MANIFEST + "[" + i + "].path",
                        "must name the tar entry that holds the item's bytes");
            }
            if (!declared.add(path)) {
                throw Refusal.invalid(BatchArchive.MANIFEST + "[" + i + "].path", "names " + path + " twice");
            }
            order.add(path);
            try {
                pending.put(path, new Pending(path, item.toDraft()));
            } catch (Refusal invalid) {
                results.put(path, ArtifactBatchResult.refused(path, invalid));
            }
        }
    }

    /**
     * The entry {@code path} has arrived: its item, to be stored and bound, or empty when there is none (an entry
     * batch.json does not name or names twice, which is recorded as a stray, or an item already refused).
     */
    Optional<Pending> arrived(String path) {
        if (!declared.contains(path) || !arrived.add(path)) {
            strays.add(ArtifactBatchResult.refused(path, new Refusal(ProblemType.INVALID_REQUEST, "the archive has an "
                    + "entry " + path + " that " + BatchArchive.MANIFEST + " does not name, or has it twice; it was "
                    + "not stored")));
            return Optional.empty();
        }
        return Optional.ofNullable(pending.remove(path));
    }

    /** What became of the item of entry {@code path}. */
    void bound(String path, ArtifactBatchResult result) {
        results.put(path, result);
    }

    /** One result per declared item, in the order of batch.json, then one per stray entry. */
    List<ArtifactBatchResult> results() {
        List<ArtifactBatchResult> all = new ArrayList<>();
        for (String path : order) {
            all.add(results.getOrDefault(path, ArtifactBatchResult.refused(path, new Refusal(
                    ProblemType.INVALID_REQUEST, BatchArchive.MANIFEST + " names " + path
                    + ", but the archive has no entry of that name"))));
        }
        all.addAll(strays);
        return all;
    }
}
