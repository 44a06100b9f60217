package dev.evidencestore.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Short request bodies are read whole on the event loop before the request goes on to JAX-RS, which then reads them
 * from memory. A blocking resource method otherwise reads its body through a stream that asks the event loop for
 * each network chunk and waits to be woken with it, two hand-overs between threads per chunk: for an artifact of a
 * few KiB, or the JSON of a bind, they cost more than the rest of reading it. Only a body that declares its length,
 * at most {@link #MAX_BYTES}, is read so (its share of memory was taken at admission), and not one whose client waits
 * to be asked for it ({@code Expect: 100-continue}), which JAX-RS asks for when it starts to read. A client that
 * stops sending is cut off by the transfer deadlines as it would be mid-stream.
 *
 * <p>Reading JSON bodies ahead too saves a tenth of the service's CPU per artifact ingested one by one. It waited for
 * {@link EventLoopLag}: without it, the worker threads no longer waited on the event loops for their bodies, took
 * the two cores from them under the fault suite's burst, and {@code /q/health/live} waited 2 s.
 */
@ApplicationScoped
class ShortBodies {

    /** The longest body read ahead: most evidence and every JSON body of the API's own writes. */
    static final int MAX_BYTES = 64 * 1024;

    void onRouter(@Observes Router router) {
        router.route().order(RequestPipeline.SHORT_BODIES).handler(ShortBodies::readAhead);
    }

    private static void readAhead(RoutingContext context) {
        HttpServerRequest request = context.request();
        RequestKind kind = RequestKind.admitted(context);
        if ((kind != RequestKind.UPLOAD && kind != RequestKind.OTHER) || !offeredWhole(request)) {
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
