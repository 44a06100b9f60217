package dev.evidencestore.http;

import dev.evidencestore.domain.ProblemType;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;
import java.util.Set;

/** Which answers are kept for retries: those a retry of the same request would get again. */
final class Outcome {

    /** Answers about the credentials or the connection, not the request: a retry may well be answered otherwise. */
    private static final Set<Integer> TRANSIENT = Set.of(401, 403, 408, 429);
    private static final String INTERRUPTED = ProblemType.UPLOAD_INTERRUPTED.uri().toString();

    private Outcome() {
    }

    /** 2xx and 4xx are final; 5xx (outages, bugs) and the transient 4xx are not, so the key is freed for a retry. */
    static boolean isFinal(int status, Object entity) {
        if (status < 200 || status >= 500 || status >= 300 && status < 400 || TRANSIENT.contains(status)) {
            return false;
        }
        return !(entity instanceof Map<?, ?> problem && INTERRUPTED.equals(problem.get("type")));
    }

    /** Only JSON bodies (or none) are stored: they are what creates answer, and they serialize as they are sent. */
    static boolean isStorable(Object entity, MediaType type) {
        return entity == null || type != null && (MediaType.APPLICATION_JSON_TYPE.isCompatible(type)
                || type.getSubtype().endsWith("+json"));
    }
}
