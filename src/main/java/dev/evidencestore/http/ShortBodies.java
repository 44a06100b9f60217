package dev.evidencestore.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Short uploads are read whole on the event loop before the request goes on to JAX-RS, which then reads them from
 * memory. A blocking resource method otherwise reads its body through a stream that asks the event loop for each
 * network chunk and waits to be woken with it, two hand-overs between threads per chunk: for an artifact of a few
 * KiB they cost more than the rest of reading it. Only an upload that declares its length, at most
 * {@link #MAX_BYTES}, is read so (its share of memory was taken at admission), and not one whose client waits to be
 * asked for it ({@code Expect: 100-continue}), which JAX-RS asks for when it starts to read. A client that stops
 * sending is cut off by the transfer deadlines as it would be mid-stream.
 *
 * <p>JSON bodies are left to JAX-RS. Read ahead too, they raised artifacts ingested one by one from 291 to 390 a
 * second on {@code filesystem}, but under the fault suite's burst the service then served most of the burst instead
 * of refusing it, and {@code /q/health/live} waited 2 s at its start (in 4 runs of 5, 1.2 s in the fifth; 0.6 to
 * 0.7 s with uploads alone): the event loops need their share of the two cores first.
 */
@ApplicationScoped
class ShortBodies {

    /** The longest upload read ahead: most evidence. */
    static final int MAX_BYTES = 64 * 1024;

    void onRouter(@Observes Router router) {
        router.route().order(RequestPipeline.SHORT_BODIES).handler(ShortBodies::readAhead);
    }

    private static void readAhead(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (RequestKind.admitted(context) != RequestKind.UPLOAD || !offeredWhole(request)) {
            context.next();
            return;
        }
        // a body that fails (the client gone, the connection cut by a deadline) has no one left to answer
        request.body().onSuccess(body -> {
            context.setBody(body);
            context.next();
        });
        request.resume();
    }

    /** A body of a declared length short enough, that the client sends without being asked for it. */
    private static boolean offeredWhole(HttpServerRequest request) {
        long declared = AdmissionControl.declaredLength(request);
        return declared > 0 && declared <= MAX_BYTES && !request.isEnded()
                && !request.headers().contains(HttpHeaders.EXPECT);
    }
}
