package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Several artifacts at once: one batch request when the service offers it, else up to N pushes in parallel. Each
 * artifact succeeds or fails on its own; the outcomes come back in the order the files were given.
 */
final class Pushes {

    private final EvidencePush push;
    private final int parallel;
    private final boolean batches;

    Pushes(EvidencePush push, int parallel, boolean batches) {
        this.push = push;
        this.parallel = parallel;
        this.batches = batches;
    }

    List<PushCommand.Outcome> run(ServiceClient client, List<ArtifactBatch.Item> items) {
        if (batches && items.size() > 1 && ArtifactBatch.offered(client)) {
            Optional<List<JsonNode>> bound = ArtifactBatch.send(client, push.incidentPath(), items);
            if (bound.isPresent()) {
                return batched(items, bound.get());
            }
        }
        return items.size() == 1 || parallel == 1 ? sequential(items) : concurrent(items);
    }

    private List<PushCommand.Outcome> sequential(List<ArtifactBatch.Item> items) {
        List<PushCommand.Outcome> outcomes = new ArrayList<>();
        for (ArtifactBatch.Item item : items) {
            outcomes.add(one(item));
        }
        return outcomes;
    }

    private List<PushCommand.Outcome> concurrent(List<ArtifactBatch.Item> items) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, items.size()));
        try {
            List<Future<PushCommand.Outcome>> futures = new ArrayList<>();
            for (ArtifactBatch.Item item : items) {
                futures.add(pool.submit(() -> one(item)));
            }
            List<PushCommand.Outcome> outcomes = new ArrayList<>();
            for (Future<PushCommand.Outcome> future : futures) {
                outcomes.add(future.get());
            }
            return outcomes;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceUnavailable("interrupted");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private PushCommand.Outcome one(ArtifactBatch.Item item) {
        try {
            return new PushCommand.Outcome(item.file().label(), push.push(item.file(), item.draft()), null);
        } catch (CommandFailure e) {
            return new PushCommand.Outcome(item.file().label(), null, e);
        }
    }

    /** Each item's result as a push alone would have ended: bound (201, 200), refused with its problem, or unknown. */
    private static List<PushCommand.Outcome> batched(List<ArtifactBatch.Item> items, List<JsonNode> results) {
        List<PushCommand.Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String label = items.get(i).file().label();
            JsonNode result = results.get(i);
            int status = result.path("status").asInt();
            if (status == 200 || status == 201) {
                outcomes.add(new PushCommand.Outcome(label, result, null));
            } else if (result.has("problem")) {
                outcomes.add(new PushCommand.Outcome(label, null,
                        new ServiceRefusal(Problem.of(status, result.get("problem").toString()))));
            } else {
                outcomes.add(new PushCommand.Outcome(label, null,
                        new ServiceUnavailable("the batch answer does not list this artifact")));
            }
        }
        return outcomes;
    }
}
