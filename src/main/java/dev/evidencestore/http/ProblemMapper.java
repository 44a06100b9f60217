package dev.evidencestore.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.evidencestore.domain.FieldError;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.security.UntrustedIdentity;
import dev.evidencestore.storage.BlobTooLarge;
import dev.evidencestore.storage.DamagedBlob;
import dev.evidencestore.storage.DigestMismatch;
import dev.evidencestore.storage.StoreBusy;
import dev.evidencestore.storage.StoreWriteFailure;
import io.quarkus.security.AuthenticationCompletionException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The one place where exceptions become problem documents. Clients get a stable type and a clear detail; stack
 * traces and internal class names stay in the log.
 */
public class ProblemMapper {

    private static final Logger LOG = Logger.getLogger(ProblemMapper.class);
    /** A request without a bearer token whose authentication failed came with a sign-in session. */
    static final String SESSION_REFUSED = "the sign-in session is invalid or has ended; sign in again";
    private static final String SESSION_COOKIE = "q_session";

    private final IdempotencyRecords idempotency;

    ProblemMapper(IdempotencyRecords idempotency) {
        this.idempotency = idempotency;
    }

    @ServerExceptionMapper
    public Response refusal(Refusal refusal) {
        return Problems.response(refusal);
    }

    @ServerExceptionMapper
    public Response unparsableParameter(InvalidParameter e) {
        return Problems.response(e.refusal());
    }

    @ServerExceptionMapper
    public Response unrecognizedField(UnrecognizedPropertyException e) {
        return Problems.response(Refusal.invalid(path(e), "is not a field of this request"));
    }

    @ServerExceptionMapper
    public Response wrongJsonType(MismatchedInputException e) {
        return unreadableJson(e);
    }

    @ServerExceptionMapper
    public Response unreadableJson(JsonMappingException e) {
        String field = path(e);
        if (field.isEmpty()) {
            return Problems.response(Refusal.invalid("body", "is not the JSON this request takes"));
        }
        return Problems.response(Refusal.invalid(field, "has the wrong type or form"));
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonProcessingException e) {
        String where = e.getLocation() == null ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        return Problems.response(ProblemType.INVALID_REQUEST, "the body is not valid JSON" + where);
    }

    /** A JSON body without a Content-Length grew past the limit; one that declared more never got this far. */
    @ServerExceptionMapper
    public Response jsonBodyTooLarge(JsonBodyLimit.TooLarge e) {
        return Problems.response(new Refusal(ProblemType.BODY_TOO_LARGE, e.getMessage()).with("maxSize", e.maxSize()));
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e) {
        List<FieldError> errors = e.getConstraintViolations().stream()
                .map(v -> new FieldError(parameterName(v), v.getMessage()))
                .collect(Collectors.toList());
        return Problems.response(Refusal.invalid(errors));
    }

    @ServerExceptionMapper
    public Response unauthenticated(UnauthorizedException e) {
        return Problems.unauthorized("this request needs a valid bearer token");
    }

    @ServerExceptionMapper
    public Response badToken(AuthenticationFailedException e, HttpHeaders headers) {
        LOG.debugf("bearer token or session refused: %s", e.getMessage());
        if (headers.getHeaderString(HttpHeaders.AUTHORIZATION) != null) {
            return Problems.unauthorized(untrustedClaim(e)
                    .orElse("the bearer token is invalid, expired or not from the trusted issuer"));
        }
        return sessionEnded(Problems.unauthorized(untrustedClaim(e).orElse(SESSION_REFUSED)), headers);
    }

    /** A sign-in session whose ID token failed verification. */
    @ServerExceptionMapper
    public Response badSession(AuthenticationCompletionException e, HttpHeaders headers) {
        LOG.debugf("session refused: %s", e.getMessage());
        return sessionEnded(Problems.unauthorized(untrustedClaim(e).orElse(SESSION_REFUSED)), headers);
    }

    /**
     * The refusal of a session, which also removes its cookie (quarkus-oidc's, whole or in chunks): quarkus-oidc
     * leaves a cookie it cannot decrypt in place, and every page, the sign-in included, would refuse it again.
     */
    private static Response sessionEnded(Response refusal, HttpHeaders headers) {
        Response.ResponseBuilder ended = Response.fromResponse(refusal);
        headers.getCookies().keySet().stream().filter(name -> name.startsWith(SESSION_COOKIE))
                .forEach(name -> ended.cookie(new NewCookie.Builder(name).value("").path("/").maxAge(0)
                        .httpOnly(true).sameSite(NewCookie.SameSite.LAX).build()));
        return ended.build();
    }

    /**
     * Which identity claim was at fault, when a token's signature held but its claims cannot be trusted: saying so
     * helps whoever configures the identity provider.
     */
    static Optional<String> untrustedClaim(Throwable refused) {
        for (Throwable cause = refused; cause != null; cause = cause.getCause()) {
            if (cause instanceof UntrustedIdentity untrusted) {
                return Optional.of(untrusted.getMessage());
            }
        }
        return Optional.empty();
    }

    @ServerExceptionMapper
    public Response wrongRole(ForbiddenException e) {
        return Problems.response(ProblemType.FORBIDDEN, "this token's roles do not allow this request");
    }

    @ServerExceptionMapper
    public Response noRoute(NotFoundException e, HttpHeaders headers, UriInfo uri) {
        if (needsToken(headers, uri)) {
            return Problems.unauthorized("this request needs a valid bearer token");
        }
        return Problems.response(ProblemType.NOT_FOUND, "no resource at this path");
    }

    /**
     * Without a token, every request outside the public reads answers 401, even where routing already failed, so
     * an anonymous caller learns nothing from how a path is spelled.
     */
    private static boolean needsToken(HttpHeaders headers, UriInfo uri) {
        return headers.getHeaderString(HttpHeaders.AUTHORIZATION) == null && uri.getPath().startsWith("/api/");
    }

    @ServerExceptionMapper
    public Response wrongMethod(NotAllowedException e, HttpHeaders headers, UriInfo uri) {
        if (needsToken(headers, uri)) {
            return Problems.unauthorized("this request needs a valid bearer token");
        }
        Response problem = Problems.response(ProblemType.METHOD_NOT_ALLOWED, "this resource does not take that method");
        String allowed = e.getResponse().getHeaderString(HttpHeaders.ALLOW);
        return allowed == null || allowed.isBlank() ? problem
                : Response.fromResponse(problem).header(HttpHeaders.ALLOW, allowed).build();
    }

    @ServerExceptionMapper
    public Response wrongContentType(NotSupportedException e) {
        return Problems.response(ProblemType.UNSUPPORTED_MEDIA_TYPE, "this resource does not accept that content type");
    }

    @ServerExceptionMapper
    public Response noAcceptableType(NotAcceptableException e) {
        return notAcceptable();
    }

    @ServerExceptionMapper
    public Response otherHttpError(WebApplicationException e) {
        if (e.getCause() instanceof JsonBodyLimit.TooLarge tooLarge) {
            return jsonBodyTooLarge(tooLarge);
        }
        if (e.getCause() instanceof JsonProcessingException json) {
            return json instanceof JsonMappingException mapping ? unreadableJson(mapping) : malformedJson(json);
        }
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e);
        }
        // a resource that negotiates its representation itself refuses with a bare 406
        if (status == ProblemType.NOT_ACCEPTABLE.status()) {
            return notAcceptable();
        }
        return Problems.response(ProblemType.INVALID_REQUEST, "the request could not be processed (HTTP " + status + ")");
    }

    private static Response notAcceptable() {
        return Problems.response(ProblemType.NOT_ACCEPTABLE, "this resource cannot produce an accepted media type");
    }

    /** The client went away mid-upload; nothing was stored, and the service did nothing wrong. */
    @ServerExceptionMapper
    public Response interruptedUpload(ClientUpload.Interrupted e, ContainerRequestContext request) {
        LOG.infof("upload interrupted by the client: %s", e.getCause());
        IdempotencyFilter.releaseInterrupted(request, idempotency);
        return Problems.response(ProblemType.UPLOAD_INTERRUPTED, "the upload ended before its body was complete; "
                + "nothing was stored");
    }

    /**
     * The client went away or stopped reading mid-download (its connection is closed): nothing can be answered, and
     * the service did nothing wrong. A line at DEBUG; the connection's closing is what the metrics record.
     */
    @ServerExceptionMapper
    public Response interruptedDownload(ClientDownload.Interrupted e) {
        LOG.debugf("download ended by the client: %s", rootMessage(e));
        return Problems.response(ProblemType.INVALID_REQUEST, "the download ended before its body was complete");
    }

    /**
     * Bytes that turned out damaged while a download streamed, found before anything was sent: refused like bytes
     * already known to be damaged. Once bytes are on the wire the transfer is cut short instead.
     */
    @ServerExceptionMapper
    public Response damagedBlob(DamagedBlob e) {
        return Problems.response(new Refusal(ProblemType.EVIDENCE_DAMAGED, "the stored bytes of " + e.digest()
                + " no longer hash to that digest; they are not served until they are restored from a backup")
                .with("digest", e.digest().toString()));
    }

    @ServerExceptionMapper
    public Response digestMismatch(DigestMismatch e) {
        return Problems.response(refusal(e));
    }

    /** The bytes were not the declared ones: as an answer, or as one item of a batch. */
    public static Refusal refusal(DigestMismatch e) {
        return new Refusal(ProblemType.DIGEST_MISMATCH, e.getMessage())
                .with("declaredDigest", e.declared().toString())
                .with("computedDigest", e.computed().toString())
                .with("size", e.size());
    }

    @ServerExceptionMapper
    public Response blobTooLarge(BlobTooLarge e) {
        return Problems.response(refusal(e));
    }

    /** The bytes were more than a blob may be: as an answer, or as one item of a batch. */
    public static Refusal refusal(BlobTooLarge e) {
        return new Refusal(ProblemType.BLOB_TOO_LARGE, e.getMessage()).with("maxSize", e.maxSize());
    }

    @ServerExceptionMapper
    public Response storeBusy(StoreBusy e) {
        return Problems.response(new Refusal(ProblemType.SERVICE_BUSY, e.getMessage())
                .with("retryAfterSeconds", e.retryAfterSeconds()));
    }

    /**
     * A store that could not write ({@link StoreWriteFailure}: full, or failing) or read is not the client's fault,
     * but retrying may well succeed: say so rather than 500.
     */
    @ServerExceptionMapper
    public Response storageFailure(IOException e, ContainerRequestContext request) {
        if (Outage.connectionClosed(e)) {
            // reading the request failed because its connection closed: the client left or was cut off as stalled
            LOG.infof("request ended by its closed connection: %s", rootMessage(e));
            IdempotencyFilter.releaseInterrupted(request, idempotency);
            return Problems.response(ProblemType.UPLOAD_INTERRUPTED, "the connection closed before the request was "
                    + "complete; nothing was stored");
        }
        Refusal outage = Outage.recognise(e).orElseGet(Outage::storageFailed);
        LOG.errorf(e, "blob store failure answered as %s", outage.type().slug());
        return Problems.response(outage);
    }

    /** A Content-Type or Accept header that is not a media type at all fails while the request is matched. */
    @ServerExceptionMapper
    public Response unparsableHeader(IllegalArgumentException e) {
        if (e.getMessage() != null && e.getMessage().startsWith("Failed to parse media type")) {
            return Problems.response(ProblemType.INVALID_REQUEST, "a Content-Type or Accept header is not a media type");
        }
        return unexpected(e);
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        Optional<Refusal> outage = Outage.recognise(e);
        if (outage.isPresent()) {
            LOG.errorf("%s answered as %s: %s", e.getClass().getSimpleName(), outage.get().type().slug(), rootMessage(e));
            return Problems.response(outage.get());
        }
        LOG.error("unexpected failure", e);
        return Problems.response(ProblemType.INTERNAL_ERROR, "an internal error occurred; it has been logged");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String parameterName(ConstraintViolation<?> violation) {
        String path = violation.getPropertyPath().toString();
        return path.substring(path.lastIndexOf('.') + 1);
    }
}
