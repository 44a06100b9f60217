package dev.evidencestore.http;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Holds the event loop a request arrived on for the milliseconds its {@link #HEADER} names, ahead of admission, as a
 * burst that kept the loop from the CPU would: so AdmissionControlTest sees a late loop refuse the very request that
 * waited on it. Requests without the header pass untouched.
 */
@ApplicationScoped
public class EventLoopStall {

    static final String HEADER = "X-Event-Loop-Stall";

    void onRouter(@Observes Router router) {
        router.route().order(RequestPipeline.ADMISSION - 3).handler(EventLoopStall::stall);
    }

    private static void stall(RoutingContext request) {
        String millis = request.request().getHeader(HEADER);
        if (millis != null) {
            try {
                Thread.sleep(Long.parseLong(millis));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        request.next();
    }
}
