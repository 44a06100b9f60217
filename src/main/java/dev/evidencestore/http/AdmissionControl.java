package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.storage.BlobStore;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * Admits requests by what they will hold, before authentication, matching and any worker thread, so a refusal
 * costs little and the requests already admitted finish. An event loop that is behind ({@link EventLoopLag}) takes on
 * nothing new; each {@link RequestKind} has its own slots (slow downloads never take those of writes, metadata reads
 * or health checks); one client address may hold only so many of them; and a request's body takes its share of the
 * heap it may use ({@link BodyMemory}) before it is read. Beyond any of them the answer is 503 service-busy with
 * Retry-After at once; a JSON body declared larger than any request may be is 413 body-too-large. Everything taken
 * is given back when the request ends, or its connection closes.
 */
@ApplicationScoped
public class AdmissionControl {

    static final int RETRY_AFTER_SECONDS = 1;
    /** The most of a refused request's body that is read and dropped before its answer, rather than cut off. */
    static final long DRAINED = 8L * 1024 * 1024;

    private final Map<RequestKind, Semaphore> slots = new EnumMap<>(RequestKind.class);
    private final Map<RequestKind, Integer> bounds = new EnumMap<>(RequestKind.class);
    private final ConcurrencyCap perClient;
    private final BodyMemory memory;
    private final BlobStore store;
    private final ClientAddress clients;
    private final EventLoopLag lag;
    private final long maxJsonBody;
    private final Map<RequestKind, String> kindBusy = new EnumMap<>(RequestKind.class);
    private final String clientBusy;
    private final String memoryBusy;
    private final String loopBehind;
    private final String tooLarge;

    AdmissionControl(EvidenceConfig config, ClientAddress clients, EventLoopLag lag, BlobStore store) {
        EvidenceConfig.Http.Admission admission = config.http().admission();
        bounds.put(RequestKind.DOWNLOAD, admission.downloads());
        bounds.put(RequestKind.UPLOAD, admission.uploads());
        bounds.put(RequestKind.OTHER, config.http().maxConcurrentRequests().orElse(admission.requests()));
        bounds.forEach((kind, bound) -> slots.put(kind, new Semaphore(bound)));
        this.perClient = new ConcurrencyCap(admission.perClient());
        this.maxJsonBody = config.http().maxJsonBody().asLongValue();
        this.memory = new BodyMemory(admission.bodyMemory().asLongValue(), maxJsonBody);
        this.store = store;
        this.clients = clients;
        this.lag = lag;
        kindBusy.put(RequestKind.DOWNLOAD, busy("the service is streaming as many downloads as it can"));
        kindBusy.put(RequestKind.UPLOAD, busy("the service is receiving as many uploads as it can"));
        kindBusy.put(RequestKind.OTHER, busy("the service is handling as many requests as it can"));
        this.clientBusy = busy("this client address has " + admission.perClient() + " requests in progress already");
        this.memoryBusy = busy("the request bodies in progress hold all the memory set aside for them");
        this.loopBehind = busy("the service is behind with the requests it has taken on");
        this.tooLarge = Problems.json(ProblemType.BODY_TOO_LARGE, "JSON bodies are limited to " + maxJsonBody
                + " bytes; nothing was done", Map.of("maxSize", maxJsonBody));
    }

    private static String busy(String reason) {
        return Problems.json(ProblemType.SERVICE_BUSY, reason + "; nothing was done",
                Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS));
    }

    void onRouter(@Observes Router router) {
        // first, ahead of authentication: a refusal that first verified a token and set up a JAX-RS request took the
        // event loops several times as long under a burst, keeping health checks waiting behind it
        router.route().order(RequestPipeline.ADMISSION).handler(this::admit);
    }

    /** On the event loop: takes a slot of the request's kind, one of its client's, and its body's share of memory. */
    void admit(RoutingContext context) {
        HttpServerRequest request = context.request();
        RequestKind kind = RequestKind.of(request.method().name(), context.normalizedPath());
        // for the stages after admission, which would otherwise take the path apart again
        kind.keepOn(context);
        if (kind == RequestKind.UNCOUNTED) {
            context.next();
            return;
        }
        long declared = declaredLength(request);
        if (kind == RequestKind.OTHER && declared > maxJsonBody && isJson(request)) {
            refuse(context, ProblemType.BODY_TOO_LARGE, tooLarge);
            return;
        }
        if (lag.behind()) {
            refuse(context, ProblemType.SERVICE_BUSY, loopBehind);
            return;
        }
        List<Runnable> taken = new ArrayList<>(3);
        String refusal = take(kind, request, share(kind, request, context.normalizedPath(), declared), taken);
        if (refusal != null) {
            taken.forEach(Runnable::run);
            refuse(context, ProblemType.SERVICE_BUSY, refusal);
            return;
        }
        RequestEnd.giveBack(context, () -> taken.forEach(Runnable::run));
        context.next();
    }

    /** Takes what the request needs, noting how to give each back; the refusal's document if something is lacking. */
    private String take(RequestKind kind, HttpServerRequest request, long share, List<Runnable> taken) {
        Semaphore kindSlots = slots.get(kind);
        if (!kindSlots.tryAcquire()) {
            return kindBusy.get(kind);
        }
        taken.add(kindSlots::release);
        String client = clients.of(request);
        if (!perClient.enter(client)) {
            return clientBusy;
        }
        taken.add(() -> perClient.leave(client));
        if (!memory.take(share)) {
            return memoryBusy;
        }
        taken.add(() -> memory.give(share));
        return null;
    }

    /**
     * The request body's share of memory. An upload counts what the blob store holds of it, which for a blob of one
     * digest, named in the path and by no Content-Digest that might disagree, may be none (docs/operations.md).
     */
    private long share(RequestKind kind, HttpServerRequest request, String path, long declared) {
        if (kind != RequestKind.UPLOAD) {
            return memory.bodyShare(declared, isChunked(request), request.headers().contains(IdempotencyKey.HEADER));
        }
        boolean oneDigest = RequestKind.putsBlobAtDigest(request.method().name(), path)
                && !request.headers().contains(ContentDigestHeader.NAME);
        return memory.uploadShare(store.heldOfUpload(declared, oneDigest));
    }

    /**
     * Answers a refusal. A body the client is still sending is read and dropped first, up to {@link #DRAINED}
     * bytes: answering and closing with its bytes unread would reset the connection, and the client could lose the
     * answer while it still writes. A larger body, or one the client waits to be asked for
     * ({@code Expect: 100-continue}), is not waited for: the answer closes the connection.
     */
    private static void refuse(RoutingContext context, ProblemType type, String document) {
        HttpServerRequest request = context.request();
        HttpServerResponse response = context.response().setStatusCode(type.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE);
        if (type == ProblemType.SERVICE_BUSY) {
            response.putHeader(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER_SECONDS));
        }
        long declared = declaredLength(request);
        if (request.isEnded() || (declared <= 0 && !isChunked(request))) {
            response.end(document);
        } else if (declared > DRAINED || request.headers().contains(HttpHeaders.EXPECT, HttpHeaders.CONTINUE, true)) {
            // a client that asked whether to send its body sends none once it has the answer
            closeAfter(response, document);
        } else {
            drainThenAnswer(request, response, document);
        }
    }

    private static void drainThenAnswer(HttpServerRequest request, HttpServerResponse response, String document) {
        long[] drained = {0};
        // a client that goes away while its refused body is dropped has its answer already, or wants none
        request.exceptionHandler(gone -> { });
        request.handler(chunk -> {
            drained[0] += chunk.length();
            if (drained[0] > DRAINED && !response.ended()) {
                closeAfter(response, document);
            }
        });
        request.endHandler(ended -> {
            if (!response.ended()) {
                response.end(document);
            }
        });
        request.resume();
    }

    private static void closeAfter(HttpServerResponse response, String document) {
        response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE).end(document).onComplete(sent -> response.close());
    }

    /** The declared Content-Length, -1 when there is none or it is not a number (Vert.x refuses those itself). */
    static long declaredLength(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length == null) {
            return -1;
        }
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean isChunked(HttpServerRequest request) {
        String encoding = request.getHeader(HttpHeaders.TRANSFER_ENCODING);
        return encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked");
    }

    /** {@code application/json} and the {@code +json} types, such as {@code application/merge-patch+json}. */
    static boolean isJson(HttpServerRequest request) {
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        if (type == null) {
            return false;
        }
        int parameters = type.indexOf(';');
        String bare = (parameters < 0 ? type : type.substring(0, parameters)).trim().toLowerCase(Locale.ROOT);
        return bare.equals("application/json") || bare.endsWith("+json");
    }

    /** Takes a slot of {@code kind} the way a request in progress takes it, for tests that hold slots. */
    boolean enter(RequestKind kind) {
        return slots.get(kind).tryAcquire();
    }

    void leave(RequestKind kind) {
        slots.get(kind).release();
    }

    /** Requests of every kind admitted and not yet finished. */
    int inProgress() {
        return inProgress(RequestKind.DOWNLOAD) + inProgress(RequestKind.UPLOAD) + inProgress(RequestKind.OTHER);
    }

    /** Requests of {@code kind} admitted and not yet finished. */
    int inProgress(RequestKind kind) {
        return bounds.get(kind) - slots.get(kind).availablePermits();
    }

    /** Counts a request of {@code client} the way admission does, for tests that hold a client's slots. */
    boolean enterClient(String client) {
        return perClient.enter(client);
    }

    void leaveClient(String client) {
        perClient.leave(client);
    }

    /** Takes body memory the way an admitted body does, for tests that hold part of it. */
    boolean takeBodyMemory(long share) {
        return memory.take(share);
    }

    void giveBodyMemory(long share) {
        memory.give(share);
    }

    /** Requests of this client address admitted and not yet finished. */
    int inProgress(String client) {
        return perClient.inProgress(client);
    }

    /** The heap request bodies in progress hold, as admitted. */
    long bodyMemoryTaken() {
        return memory.taken();
    }
}
