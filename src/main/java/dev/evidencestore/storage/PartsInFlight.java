package dev.evidencestore.storage;

import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * The parts of one multipart upload on their way to S3, each sent on a thread of its own while the upload's thread
 * reads and hashes the next. Beyond the upload's own first buffer, every buffer comes from a budget the store's
 * uploads share, taken only when free and never waited for: an upload that finds none sends its parts one at a
 * time, so the memory held stays bounded and no upload waits on another. Buffers go from part to part, and back to
 * the budget when the upload ends.
 */
final class PartsInFlight implements AutoCloseable {

    /** Sends one part; {@code number} counts from 1. */
    @FunctionalInterface
    interface Sender {
        CompletedPart send(PartBuffer part, int number) throws IOException;
    }

    private record Sent(PartBuffer buffer, CompletedPart part) {
    }

    /** As many threads as parts in flight, which the admitted uploads and their share of the budget bound. */
    private static final ExecutorService SENDERS = StoreThreads.named("s3-part-sender");

    private final int partSize;
    private final int maxInFlight;
    private final Semaphore sharedBuffers;
    private final Sender sender;
    private final CompletionService<Sent> sent = new ExecutorCompletionService<>(SENDERS);
    private final Deque<PartBuffer> free = new ArrayDeque<>();
    private final List<CompletedPart> parts = new ArrayList<>();
    private int inFlight;
    private int borrowed;
    private int number;

    /** {@code maxInFlight}: parts sent at once; the upload holds one more buffer, the part it reads meanwhile. */
    PartsInFlight(int partSize, int maxInFlight, Semaphore sharedBuffers, Sender sender) {
        this.partSize = partSize;
        this.maxInFlight = maxInFlight;
        this.sharedBuffers = sharedBuffers;
        this.sender = sender;
    }

    /** Sends {@code part} as the next part, once fewer than the most allowed are on their way. */
    void send(PartBuffer part) throws IOException {
        while (inFlight >= maxInFlight) {
            awaitOne();
        }
        int current = ++number;
        sent.submit(() -> new Sent(part, sender.send(part, current)));
        inFlight++;
    }

    /** A buffer to read the next part into: one whose part arrived, one more from the budget, or the next to arrive. */
    PartBuffer nextBuffer() throws IOException {
        collectArrived();
        if (free.isEmpty() && borrowed < maxInFlight && sharedBuffers.tryAcquire()) {
            borrowed++;
            return PartBuffer.whole(partSize);
        }
        while (free.isEmpty()) {
            awaitOne();
        }
        return free.pop();
    }

    /** Waits for every part sent; the parts by number, as CompleteMultipartUpload wants them, in whatever order. */
    List<CompletedPart> completed() throws IOException {
        while (inFlight > 0) {
            awaitOne();
        }
        parts.sort(Comparator.comparingInt(CompletedPart::partNumber));
        return List.copyOf(parts);
    }

    /** Takes in the parts that arrived already, so that a failed one stops the upload before more is read. */
    private void collectArrived() throws IOException {
        for (Future<Sent> arrived = sent.poll(); arrived != null; arrived = sent.poll()) {
            collect(arrived);
        }
    }

    private void awaitOne() throws IOException {
        try {
            collect(sent.take());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while parts were sent");
        }
    }

    private void collect(Future<Sent> arrived) throws IOException {
        inFlight--;
        Sent part = outcome(arrived);
        free.push(part.buffer());
        parts.add(part.part());
    }

    /** The part sent, or the failure to send it, as the upload's own. */
    private static Sent outcome(Future<Sent> arrived) throws IOException {
        try {
            return arrived.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while parts were sent");
        } catch (ExecutionException e) {
            throw WorkerFailure.rethrown(e.getCause(), "a part could not be sent");
        }
    }

    /**
     * Waits until no part is on its way, however the upload ended, and gives the borrowed buffers back. A part still
     * being sent when the upload is aborted could land after the abort and be kept (S3 says so), so this comes
     * first; each request ends within the SDK's timeouts. A failing upload's other failures add nothing to its own.
     */
    @Override
    public void close() {
        boolean interrupted = false;
        while (inFlight > 0) {
            try {
                sent.take();
                inFlight--;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        sharedBuffers.release(borrowed);
        borrowed = 0;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
