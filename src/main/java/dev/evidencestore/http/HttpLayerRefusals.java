package dev.evidencestore.http;

import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.quarkus.security.AuthenticationCompletionException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.AuthenticationRedirectException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.util.Optional;

/**
 * Problem documents for requests refused below JAX-RS, where no exception mapper runs: by Vert.x's HTTP decoder (a
 * request line or header that is not HTTP, a target or headers over the limits), by Quarkus (a request target that
 * is not a URI) and by the router (a path it cannot take apart). Vert.x and Quarkus answer those with a bare status
 * line; clients get the same RFC 9457 shape as everywhere else. {@link UndecodableRequests} sends them here.
 */
@ApplicationScoped
public class HttpLayerRefusals {

    private static final Logger LOG = Logger.getLogger(HttpLayerRefusals.class);
    /** The stream a handler's answer is written through; its IOExceptions mean the connection is gone. */
    private static final String VERTX_OUTPUT = "io.quarkus.vertx.utils.VertxOutputStream";

    /**
     * Failures of the router itself, before or outside JAX-RS: a request it cannot route (400, e.g. {@code GET ?x}),
     * or a handler that failed; ahead of Quarkus's own error page, which is not a problem document. Other statuses
     * (a failing health check is not a failure) go on to Quarkus.
     */
    void onRouter(@Observes Router router) {
        router.route().order(RequestPipeline.ROUTER_FAILURES).failureHandler(HttpLayerRefusals::routingFailure);
    }

    private static void routingFailure(RoutingContext context) {
        int status = context.statusCode();
        if (status == ProblemType.MALFORMED_REQUEST.status()) {
            answer(context.response(), ProblemType.MALFORMED_REQUEST, "the request could not be routed; nothing was "
                    + "done", false);
        } else if (context.failure() instanceof AuthenticationCompletionException refused) {
            answer(context.response(), ProblemType.UNAUTHORIZED, signInRefusal(refused), false);
        } else if (context.failure() instanceof AuthenticationRedirectException
                || context.failure() instanceof AuthenticationFailedException) {
            // on the way to or back from the identity provider (/sign-in): Quarkus redirects, or asks to sign in again
            context.next();
        } else if (status == -1 || status >= 500) {
            failed(context);
        } else {
            context.next();
        }
    }

    /** Why a sign-in that came back from the identity provider was refused, as far as it can be said. */
    private static String signInRefusal(AuthenticationCompletionException refused) {
        LOG.debugf("sign-in refused: %s", refused.getMessage());
        return ProblemMapper.untrustedClaim(refused).orElse("the sign-in could not be completed; nothing was done");
    }

    /** A handler failed: an outage (the database lost, a disk full) is answered as in JAX-RS, anything else 500. */
    private static void failed(RoutingContext context) {
        if (context.response().closed() || writingToAClosedConnection(context)) {
            // the client left (or was cut off as stalled) and what failed was writing to it: nobody to answer
            LOG.debugf("%s %s failed after its connection closed: %s", context.request().method(),
                    context.normalizedPath(), context.failure());
            return;
        }
        Optional<Refusal> outage = context.failure() == null ? Optional.empty() : Outage.recognise(context.failure());
        if (outage.isPresent()) {
            Refusal refusal = outage.get();
            LOG.errorf("%s while routing answered as %s", context.failure(), refusal.type().slug());
            Object retryAfter = refusal.extensions().get("retryAfterSeconds");
            if (retryAfter != null && !context.response().headWritten()) {
                context.response().putHeader(HttpHeaders.RETRY_AFTER, retryAfter.toString());
            }
            send(context.response(), refusal.type(), Problems.json(refusal.type(), refusal.getMessage(),
                    refusal.extensions()), false);
            return;
        }
        LOG.error("unexpected failure while routing " + context.request().method() + " " + context.normalizedPath(),
                context.failure());
        answer(context.response(), ProblemType.INTERNAL_ERROR, "an internal error occurred; it has been logged", false);
    }

    /**
     * A reset can reach the writing thread before the event loop marks the response closed: the write then fails with
     * a closed stream while {@code closed()} still says false.
     */
    private static boolean writingToAClosedConnection(RoutingContext context) {
        Throwable failure = context.failure();
        return failure != null && (Outage.connectionClosed(failure) || Outage.tree(failure).stream().anyMatch(cause ->
                cause instanceof IOException && cause.getStackTrace().length > 0
                        && VERTX_OUTPUT.equals(cause.getStackTrace()[0].getClassName())));
    }

    /** For requests that Vert.x could not decode. */
    static void undecodable(HttpServerRequest request) {
        Throwable cause = request.decoderResult().cause();
        LOG.debugf("undecodable request refused: %s", cause == null ? "unknown" : cause.getMessage());
        if (cause instanceof TooLongHttpLineException) {
            answer(request.response(), ProblemType.URI_TOO_LONG, "the request line is longer than this service "
                    + "accepts; nothing was done", true);
        } else if (cause instanceof TooLongHttpHeaderException) {
            answer(request.response(), ProblemType.HEADER_FIELDS_TOO_LARGE, "the request headers are larger than "
                    + "this service accepts; nothing was done", true);
        } else {
            answer(request.response(), ProblemType.MALFORMED_REQUEST, "the request is not valid HTTP/1.1: its request "
                    + "line or a header could not be parsed; nothing was done", true);
        }
    }

    /** For requests whose target {@link java.net.URI} cannot parse (a raw {@code "}, {@code %zz}, a control byte). */
    static void unparsableTarget(HttpServerRequest request) {
        answer(request.response(), ProblemType.MALFORMED_REQUEST, "the request target is not a valid URI; nothing was "
                + "done", true);
    }

    /**
     * With {@code close}, the connection closes after the answer: what follows a request that could not be decoded
     * is not trusted. An answer already under way cannot be replaced; it is cut off.
     */
    private static void answer(HttpServerResponse response, ProblemType type, String detail, boolean close) {
        send(response, type, Problems.json(type, detail), close);
    }

    private static void send(HttpServerResponse response, ProblemType type, String problem, boolean close) {
        if (response.headWritten()) {
            response.close();
            return;
        }
        response.setStatusCode(type.status()).putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE);
        if (!close) {
            response.end(problem);
            return;
        }
        response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE).end(problem).onComplete(sent -> response.close());
    }
}
