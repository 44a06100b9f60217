package dev.evidencestore.domain;

import java.net.URI;

/**
 * Every kind of problem the service reports, with its stable RFC 9457 {@code type} URI and HTTP status.
 * Clients may switch on the slug; it never changes once published.
 */
public enum ProblemType {
    INVALID_REQUEST(400, "invalid-request", "The request is malformed or fails validation"),
    MALFORMED_REQUEST(400, "malformed-request", "The request is not well-formed HTTP"),
    DIGEST_MISMATCH(400, "digest-mismatch", "The bytes do not match the declared digest"),
    UPLOAD_INTERRUPTED(400, "upload-interrupted", "The upload ended before its body was complete"),
    UNAUTHORIZED(401, "unauthorized", "Authentication required"),
    FORBIDDEN(403, "forbidden", "Not allowed for this token's roles"),
    NOT_FOUND(404, "not-found", "No such resource"),
    METHOD_NOT_ALLOWED(405, "method-not-allowed", "Method not allowed on this resource"),
    NOT_ACCEPTABLE(406, "not-acceptable", "No acceptable representation"),
    INCIDENT_EXISTS(409, "incident-exists", "An incident with this key already exists"),
    ARTIFACT_NAME_TAKEN(409, "artifact-name-taken", "The artifact name is already bound to other evidence"),
    FINDING_NAME_TAKEN(409, "finding-name-taken", "A finding with this name already says something else"),
    FINDING_FROZEN(409, "finding-frozen", "The finding has been decided and can no longer change"),
    UNVERIFIED_EVIDENCE(409, "unverified-evidence", "Cited evidence has not been verified since the finding was proposed"),
    ROOT_CAUSE_FROZEN(409, "root-cause-frozen", "The root cause has been accepted and can no longer change"),
    UNSUPPORTED_ROOT_CAUSE(409, "unsupported-root-cause", "The root cause is not supported by accepted findings"),
    FOUR_EYES(409, "four-eyes", "A second person must check this"),
    IDEMPOTENCY_KEY_IN_FLIGHT(409, "idempotency-key-in-flight",
            "A request with this Idempotency-Key is still being processed"),
    BLOB_TOO_LARGE(413, "blob-too-large", "The blob exceeds the configured size limit"),
    BODY_TOO_LARGE(413, "body-too-large", "The request body is larger than the service accepts"),
    TEXT_TOO_LARGE(413, "text-too-large", "The text is too long to check"),
    URI_TOO_LONG(414, "uri-too-long", "The request target is too long"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported-media-type", "Unsupported request content type"),
    RANGE_NOT_SATISFIABLE(416, "range-not-satisfiable", "The requested range is not satisfiable"),
    UNKNOWN_BLOB(422, "unknown-blob", "The referenced blob has not been uploaded"),
    INVALID_CITATION(422, "invalid-citation", "A cited record does not exist here or cannot be cited this way"),
    IDEMPOTENCY_KEY_REUSED(422, "idempotency-key-reused", "The Idempotency-Key was already used for another request"),
    TOO_MANY_REQUESTS(429, "too-many-requests",
            "Too many unauthenticated writes from this address; retry after the given delay"),
    HEADER_FIELDS_TOO_LARGE(431, "header-fields-too-large", "The request header fields are too large"),
    EVIDENCE_DAMAGED(500, "evidence-damaged", "The stored bytes no longer match their digest"),
    SERVICE_BUSY(503, "service-busy", "The service is at capacity; retry after the given delay"),
    AUDIT_PENDING(503, "audit-pending",
            "The audit log has not yet given the entry its place; retry after the given delay"),
    DATABASE_UNAVAILABLE(503, "database-unavailable", "The database cannot be reached; retry after the given delay"),
    STORAGE_UNAVAILABLE(503, "storage-unavailable", "The blob store failed to write; retry after the given delay"),
    INSUFFICIENT_STORAGE(507, "insufficient-storage", "The blob store has no space left"),
    INTERNAL_ERROR(500, "internal-error", "Internal error");

    public static final String BASE_URI = "https://evidence-store.dev/problems/";

    private final int status;
    private final String slug;
    private final String title;

    ProblemType(int status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }

    public URI uri() {
        return URI.create(BASE_URI + slug);
    }
}
