package dev.evidencestore.http;

import io.vertx.ext.web.RoutingContext;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gives back what a request holds (its admission slots and body memory, its principal's slot) when it ends, once.
 * A routing context's end handlers alone do not always run: they hang on the response's one end, exception and close
 * handler, which others may set again for themselves (Quarkus REST sets the close handler). A download cut short
 * after its head went out, its bytes found damaged at their end, then ended with none of them called, and its slots
 * were lost for good. So the close of the request's connection, as {@link TransferWatch} sees it, gives back too.
 */
final class RequestEnd {

    private RequestEnd() {
    }

    /** Runs {@code giveBack} once, when the response ends or the connection closes, whichever comes first. */
    static void giveBack(RoutingContext context, Runnable giveBack) {
        AtomicBoolean given = new AtomicBoolean();
        Runnable once = () -> {
            if (given.compareAndSet(false, true)) {
                giveBack.run();
            }
        };
        Runnable forget = TransferWatch.whenClosed(context.request(), once);
        context.addEndHandler(ended -> {
            forget.run();
            once.run();
        });
    }
}
