package dev.evidencestore.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** An answer as it was sent, status, headers and body bytes, to be sent again to a retry. */
record StoredResponse(int status, Map<String, List<String>> headers, byte[] body) {

    /** Set when the answer is written or describing the connection, not the answer; Content-Type is kept apart. */
    private static final Set<String> UNSTORED = Set.of("content-type", "content-length", "transfer-encoding", "date",
            "connection", IdempotencyFilter.REPLAYED.toLowerCase(Locale.ROOT));

    StoredResponse {
        headers = Map.copyOf(headers);
    }

    /**
     * The answer leaving for the client, whose entity is replaced by its JSON bytes here, so that what is sent and
     * what is stored are the same bytes. {@code type} is the media type it is sent as.
     */
    static StoredResponse capture(ContainerResponseContext response, MediaType type, ObjectMapper mapper)
            throws JsonProcessingException {
        Object entity = response.getEntity();
        byte[] body = entity == null ? new byte[0] : mapper.writeValueAsBytes(entity);
        if (entity != null) {
            response.setEntity(body, response.getEntityAnnotations(), type);
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        response.getStringHeaders().forEach((name, values) -> {
            if (!UNSTORED.contains(name.toLowerCase(Locale.ROOT))) {
                headers.put(name, List.copyOf(values));
            }
        });
        if (type != null) {
            headers.put(HttpHeaders.CONTENT_TYPE, List.of(type.toString()));
        }
        return new StoredResponse(response.getStatus(), headers, body);
    }

    Response replay() {
        Response.ResponseBuilder replay = Response.status(status);
        headers.forEach((name, values) -> values.forEach(value -> {
            if (name.equalsIgnoreCase(HttpHeaders.CONTENT_TYPE)) {
                replay.type(value);
            } else {
                replay.header(name, value);
            }
        }));
        if (body.length > 0) {
            replay.entity(body);
        }
        return replay.header(IdempotencyFilter.REPLAYED, IdempotencyFilter.REPLAYED_TRUE).build();
    }
}
