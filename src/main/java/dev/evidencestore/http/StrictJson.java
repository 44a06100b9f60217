package dev.evidencestore.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * Request bodies are read strictly: an unknown field, a number where text belongs or trailing garbage is a 400,
 * not something silently dropped or converted into evidence metadata.
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    /**
     * A backstop for JSON read any way: request bodies are held to {@code evidence.http.max-json-body} (1 MiB) by
     * {@link AdmissionControl} and {@link JsonBodyLimit}, which answer 413. The mapper is made before the service's
     * configuration can be read, so this bound is fixed; a max-json-body above it is cut to it (400).
     */
    public static final int MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

    @Override
    public void customize(ObjectMapper mapper) {
        // request bodies are small records; a bigger document is an attack on memory, refused while it is read
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxDocumentLength(MAX_DOCUMENT_BYTES).build());
        // a key given twice would otherwise be read as its last value, so a body could say two things at once
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        mapper.disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    }
}
