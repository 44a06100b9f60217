package dev.evidencestore.http;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.vertx.http.runtime.security.HttpSecurityRecorder.DefaultAuthFailureHandler;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.lang.reflect.Constructor;
import java.util.function.BiConsumer;

/**
 * Hands a request's authentication failures to Quarkus REST, which answers them as problems, exactly as Quarkus REST's
 * own filter right after authentication does; but without what that filter also does when metrics are on, on every
 * request whether it fails or not: build a new request mapper of every resource to look up the route template (a
 * tenth of the CPU of a small read). The handler put in place is Quarkus REST's own, which it recognises and takes
 * over once a request reaches JAX-RS. A refusal's metrics are named by {@link RouteTemplateTags} instead, as every
 * other request JAX-RS did not match.
 */
@Singleton
@RegisterForReflection(classNames = AuthFailureRouting.REST_HANDLER)
public class AuthFailureRouting {

    /** The routing context key under which Quarkus's authentication leaves what to do when it fails. */
    static final String HANDLER_KEY = "io.quarkus.vertx.http.auth-failure-handler";
    static final String REST_HANDLER =
            "io.quarkus.resteasy.reactive.server.runtime.ResteasyReactiveRecorder$FailingDefaultAuthFailureHandler";
    private static final Logger LOG = Logger.getLogger(AuthFailureRouting.class);

    private final BiConsumer<RoutingContext, Throwable> restHandler = restHandler();
    private volatile Router router;

    @SuppressWarnings("unchecked")
    private static BiConsumer<RoutingContext, Throwable> restHandler() {
        try {
            Constructor<?> constructor = Class.forName(REST_HANDLER).getDeclaredConstructor();
            constructor.setAccessible(true);
            return (BiConsumer<RoutingContext, Throwable>) constructor.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warnf("Quarkus REST's authentication failure handler is not where it was (%s): every request looks"
                    + " its route template up again", e);
            return null;
        }
    }

    /** Whether a failed authentication of this request goes to Quarkus REST without a template lookup. */
    boolean routes(RoutingContext context) {
        return restHandler != null && context.get(HANDLER_KEY) == restHandler;
    }

    void onRouter(@Observes Router router) {
        this.router = router;
    }

    /**
     * Quarkus adds its filters, authentication among them, after the router event; a route of the same order runs
     * after those added before it, so this one is added once they are all there.
     */
    void onStart(@Observes StartupEvent started) {
        if (router != null && restHandler != null) {
            router.route().order(RequestPipeline.AUTH_FAILURE_ROUTING).handler(this::route);
        }
    }

    private void route(RoutingContext context) {
        if (context.get(HANDLER_KEY) instanceof DefaultAuthFailureHandler) {
            context.put(HANDLER_KEY, restHandler);
        }
        context.next();
    }
}
