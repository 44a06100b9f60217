package dev.evidencestore.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import jakarta.ws.rs.core.Response;

import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds RFC 9457 problem documents; the single shape of every error this service returns. */
public final class Problems {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** For the HTTP layer below JAX-RS, which has no message body writers; problem documents are flat maps. */
    private static final ObjectMapper JSON = new ObjectMapper();

    private Problems() {
    }

    public static Response response(Refusal refusal) {
        if (refusal.type() == ProblemType.UNAUTHORIZED) {
            return unauthorized(refusal.getMessage());
        }
        Response problem = response(refusal.type(), refusal.getMessage(), refusal.extensions());
        Object retryAfter = refusal.extensions().get("retryAfterSeconds");
        return retryAfter == null ? problem : Response.fromResponse(problem).header("Retry-After", retryAfter).build();
    }

    /** A 401 that tells the client which scheme to authenticate with (RFC 9110 section 11.6.1). */
    public static Response unauthorized(String detail) {
        return Response.fromResponse(response(ProblemType.UNAUTHORIZED, detail))
                .header("WWW-Authenticate", "Bearer").build();
    }

    public static Response response(ProblemType type, String detail) {
        return response(type, detail, Map.of());
    }

    public static Response response(ProblemType type, String detail, Map<String, Object> extensions) {
        return Response.status(type.status()).type(MEDIA_TYPE).entity(document(type, detail, extensions)).build();
    }

    /** The problem document as JSON text, for answers written below JAX-RS (by Vert.x handlers). */
    public static String json(ProblemType type, String detail) {
        return json(type, detail, Map.of());
    }

    /** As {@link #json(ProblemType, String)}, with extension members. */
    public static String json(ProblemType type, String detail, Map<String, Object> extensions) {
        try {
            return JSON.writeValueAsString(document(type, detail, extensions));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A refusal as the members of its problem document, for answers that carry several (a batch's results). */
    public static Map<String, Object> document(Refusal refusal) {
        return document(refusal.type(), refusal.getMessage(), refusal.extensions());
    }

    static Map<String, Object> document(ProblemType type, String detail, Map<String, Object> extensions) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", type.uri().toString());
        problem.put("title", type.title());
        problem.put("status", type.status());
        problem.put("detail", detail);
        extensions.forEach(problem::putIfAbsent);
        return problem;
    }
}
