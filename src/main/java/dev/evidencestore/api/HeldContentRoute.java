package dev.evidencestore.api;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.http.PrincipalCap;
import dev.evidencestore.http.RequestPipeline;
import dev.evidencestore.http.Routes;
import dev.evidencestore.http.WorkspaceAccess;
import dev.evidencestore.security.Actor;
import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.security.ResolvedBearers;
import dev.evidencestore.service.ArtifactService;
import dev.evidencestore.service.HeldContent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.Optional;

/**
 * Small evidence is most of the reads, and its bytes are usually in memory: a GET of an artifact's content whose
 * artifact, bytes and clean damage status are all held is answered here on the event loop, with no worker thread,
 * no JAX-RS and no database, after the same workspace decision and per-principal cap as the resource. It answers
 * only 200 and 304, with the headers and bytes {@link ArtifactResource#content} would send; everything else (a
 * range, an artifact or blob not in memory, any refusal, a token that fails) goes on to that resource, which answers
 * as it always does.
 *
 * <p>It answers at two points of the pipeline: before Quarkus's authentication when who asks is already known (no
 * {@code Authorization} header: anonymous; or a header authentication resolved before, {@link ResolvedBearers}),
 * and after it otherwise, where it resolves the deferred identity and remembers what the header resolved to.
 */
@ApplicationScoped
public class HeldContentRoute {

    private static final String PATH = Routes.ARTIFACT.replace("{id}", ":id") + "/content";

    private final ArtifactService artifacts;
    private final WorkspaceAccess access;
    private final PrincipalCap principals;
    private final ResolvedBearers bearers;
    private final Counter servedKnown;
    private final Counter servedResolved;

    HeldContentRoute(ArtifactService artifacts, WorkspaceAccess access, PrincipalCap principals,
                     ResolvedBearers bearers, MeterRegistry registry) {
        this.artifacts = artifacts;
        this.access = access;
        this.principals = principals;
        this.bearers = bearers;
        this.servedKnown = served(registry, "before-authentication");
        this.servedResolved = served(registry, "after-authentication");
    }

    private static Counter served(MeterRegistry registry, String stage) {
        return Counter.builder("evidence.reads.held")
                .description("Reads of artifact content answered from memory, without a worker thread")
                .tag("stage", stage)
                .register(registry);
    }

    void onRouter(@Observes Router router) {
        router.get(PATH).order(RequestPipeline.HELD_CONTENT_KNOWN).handler(this::serveKnown);
        router.get(PATH).order(RequestPipeline.HELD_CONTENT).handler(this::serve);
    }

    /** Before authentication: only when who asks is known without it. */
    private void serveKnown(RoutingContext context) {
        Optional<ArtifactId> id = requested(context);
        String authorization = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        Optional<Actor> actor = authorization == null ? Optional.of(Actor.ANONYMOUS) : bearers.actorOf(authorization);
        if (id.isEmpty() || actor.isEmpty()) {
            context.next();
            return;
        }
        serve(context, id.get(), actor.get(), servedKnown);
    }

    private void serve(RoutingContext context) {
        Uni<SecurityIdentity> identity = context.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
        Optional<ArtifactId> id = requested(context);
        if (identity == null || id.isEmpty()) {
            context.next();
            return;
        }
        Context loop = Vertx.currentContext();
        identity.subscribe().with(
                resolved -> onLoop(loop, () -> serve(context, id.get(), resolved)),
                failed -> onLoop(loop, context::next));
    }

    private void serve(RoutingContext context, ArtifactId id, SecurityIdentity identity) {
        Actor actor = CurrentActor.of(identity);
        bearers.remember(context.request().getHeader(HttpHeaders.AUTHORIZATION), identity, actor);
        serve(context, id, actor, servedResolved);
    }

    /** The artifact whose whole content is asked for; empty for a range, or an ID the resource must refuse. */
    private static Optional<ArtifactId> requested(RoutingContext context) {
        return context.request().headers().contains("Range") ? Optional.empty()
                : parse(context.pathParam("id"));
    }

    private void serve(RoutingContext context, ArtifactId id, Actor actor, Counter served) {
        Optional<HeldContent> held = access.mayRead(actor, id.workspace()) ? artifacts.heldContent(id)
                : Optional.empty();
        if (held.isEmpty() || !principals.enters(actor, context)) {
            context.next();
            return;
        }
        HeldContent content = held.get();
        String etag = BlobRepresentation.etag(content.digest());
        HttpServerResponse response = context.response();
        BlobRepresentation.headers(content.digest(), etag, response::putHeader);
        if (EntityTags.matches(context.request().getHeader(HttpHeaders.IF_NONE_MATCH), etag)) {
            response.setStatusCode(304).end();
        } else {
            response.putHeader(HttpHeaders.CONTENT_TYPE, content.mediaType()).end(Buffer.buffer(content.bytes()));
        }
        served.increment();
    }

    private static Optional<ArtifactId> parse(String id) {
        try {
            return id == null ? Optional.empty() : Optional.of(ArtifactId.parse(id));
        } catch (RuntimeException malformed) {
            // the resource answers a malformed ID with its 400
            return Optional.empty();
        }
    }

    /** Identity may resolve off the event loop; routing goes on on the loop that received the request. */
    private static void onLoop(Context loop, Runnable step) {
        if (Vertx.currentContext() == loop) {
            step.run();
        } else {
            loop.runOnContext(ignored -> step.run());
        }
    }
}
