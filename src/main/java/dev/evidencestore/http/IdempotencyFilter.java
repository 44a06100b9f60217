package dev.evidencestore.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.security.Actor;
import dev.evidencestore.security.CurrentActor;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Idempotent retries (draft-ietf-httpapi-idempotency-key-header) of the operations marked {@link Idempotent}. A
 * request with an {@code Idempotency-Key} claims the key, per principal, before the resource runs: a retry of an
 * answered request gets that answer again, marked {@code Idempotent-Replayed: ?1}; the same key with another
 * request is refused (422), and so is a retry while the first is still running (409). The answer is stored on the
 * way out, byte for byte as it is sent. Requests without the header are not touched.
 */
public class IdempotencyFilter {

    /** Marks a replayed answer, as Stripe and others do; the draft names no such header. */
    public static final String REPLAYED = "Idempotent-Replayed";
    /** The header's value: an RFC 8941 Boolean, true. */
    public static final String REPLAYED_TRUE = "?1";

    private static final Logger LOG = Logger.getLogger(IdempotencyFilter.class);
    private static final String HELD = IdempotencyFilter.class.getName() + ".held";
    /** The client may retry a request still running soon: creates take milliseconds. */
    private static final int RETRY_AFTER_SECONDS = 1;

    private final IdempotencyRecords records;
    private final ObjectMapper mapper;
    private final CurrentIdentityAssociation identities;
    private final CurrentActor actor;
    private final long maxJsonBody;

    IdempotencyFilter(IdempotencyRecords records, ObjectMapper mapper, CurrentIdentityAssociation identities,
                      CurrentActor actor, EvidenceConfig config) {
        this.maxJsonBody = config.http().maxJsonBody().asLongValue();
        this.records = records;
        this.mapper = mapper;
        this.identities = identities;
        this.actor = actor;
    }

    /** After the WorkspaceGate (priority USER): only requests it lets through, from a known principal, claim keys. */
    @ServerRequestFilter(priority = RequestPipeline.IDEMPOTENCY_CLAIM)
    public Uni<Response> claim(ContainerRequestContext request, ResourceInfo resource) {
        Method method = resource.getResourceMethod();
        Idempotent idempotent = method == null ? null : method.getAnnotation(Idempotent.class);
        List<String> fields = request.getHeaders().get(IdempotencyKey.HEADER);
        if (idempotent == null || fields == null) {
            return Uni.createFrom().nullItem();
        }
        // the WorkspaceGate resolved the identity already; this only waits for it without blocking
        return identities.getDeferredIdentity().map(identity -> actor.get())
                .chain(caller -> WorkerThread.call(() -> claim(request, idempotent, caller, fields)));
    }

    private Response claim(ContainerRequestContext request, Idempotent idempotent, Actor caller, List<String> fields) {
        if (caller.anonymous()) {
            return null;
        }
        try {
            IdempotencyKey key = IdempotencyKey.of(fields);
            Optional<RequestFingerprint> fingerprint = RequestFingerprint.of(request, idempotent, maxJsonBody);
            if (fingerprint.isEmpty()) {
                return null;
            }
            return answer(request, records.claim(caller.attribution(), key, fingerprint.get()));
        } catch (Refusal refusal) {
            return Problems.response(refusal);
        } catch (IOException e) {
            return Problems.response(ProblemType.UPLOAD_INTERRUPTED, "the body ended before it was complete; "
                    + "nothing was stored");
        }
    }

    private static Response answer(ContainerRequestContext request, Claim claim) {
        if (claim instanceof Claim.Granted granted) {
            request.setProperty(HELD, granted.held());
            return null;
        }
        if (claim instanceof Claim.Completed completed) {
            return completed.response().replay();
        }
        if (claim instanceof Claim.Reused) {
            return Problems.response(new Refusal(ProblemType.IDEMPOTENCY_KEY_REUSED, "this Idempotency-Key was "
                    + "used for a request with another method, path or body; a new request needs a new key"));
        }
        return Problems.response(new Refusal(ProblemType.IDEMPOTENCY_KEY_IN_FLIGHT, "a request with this "
                + "Idempotency-Key is still being processed; retry later to receive its answer")
                .with("retryAfterSeconds", RETRY_AFTER_SECONDS));
    }

    /**
     * Stores the answer under the key, or frees the key when a retry might be answered otherwise. Runs after the
     * AuditFilter (response filters run from the highest priority down), which reads the answer's entity as the
     * resource made it; here it is replaced by its bytes, so what is sent and what is stored are the same bytes.
     */
    @ServerResponseFilter(priority = RequestPipeline.IDEMPOTENCY_SETTLE)
    public Uni<Void> settle(ContainerRequestContext request, ContainerResponseContext response,
                            ResourceInfo resource) {
        if (!(request.getProperty(HELD) instanceof HeldKey held)) {
            return Uni.createFrom().voidItem();
        }
        request.removeProperty(HELD);
        return WorkerThread.call(() -> {
            settle(held, response, resource);
            return null;
        });
    }

    /**
     * Frees the key of a request whose upload the client cut: nothing was stored, so there is nothing to replay, and
     * the retry must not wait for the key to count as abandoned. Called where the interruption is mapped, on the
     * thread the resource ran on: a connection closed that early can end the exchange before the response filters,
     * and with them {@link #settle}, run at all.
     */
    static void releaseInterrupted(ContainerRequestContext request, IdempotencyRecords records) {
        if (request.getProperty(HELD) instanceof HeldKey held) {
            request.removeProperty(HELD);
            records.release(held);
        }
    }

    private void settle(HeldKey held, ContainerResponseContext response, ResourceInfo resource) {
        try {
            MediaType type = response.getMediaType() != null ? response.getMediaType() : produced(resource);
            if (Outcome.isFinal(response.getStatus(), response.getEntity())
                    && Outcome.isStorable(response.getEntity(), type)) {
                store(held, response, type);
            } else {
                records.release(held);
            }
        } catch (RuntimeException | JsonProcessingException e) {
            LOG.errorf(e, "the answer to %s could not be stored for retries; the key stays claimed until it counts "
                    + "as abandoned", held.principal());
        }
    }

    /**
     * The media type the resource declares, as Quarkus sends it (in UTF-8) for an answer without an explicit type;
     * Quarkus settles it only when the entity is written, after this filter.
     */
    private static MediaType produced(ResourceInfo resource) {
        Produces produces = resource.getResourceMethod().getAnnotation(Produces.class);
        if (produces == null) {
            produces = resource.getResourceClass().getAnnotation(Produces.class);
        }
        if (produces == null || produces.value().length != 1) {
            return null;
        }
        MediaType declared = MediaType.valueOf(produces.value()[0]);
        return declared.getParameters().containsKey(MediaType.CHARSET_PARAMETER) ? declared
                : declared.withCharset(StandardCharsets.UTF_8.name());
    }

    private void store(HeldKey held, ContainerResponseContext response, MediaType type)
            throws JsonProcessingException {
        if (!records.complete(held, StoredResponse.capture(response, type, mapper))) {
            LOG.infof("a retry took over an Idempotency-Key of %s while its first request ran; that answer is not "
                    + "stored", held.principal());
        }
    }
}
