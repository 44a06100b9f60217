package dev.evidencestore.http;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.SequenceId;
import dev.evidencestore.domain.Workspace;
import jakarta.ws.rs.ext.ParamConverter;
import jakarta.ws.rs.ext.ParamConverterProvider;
import jakarta.ws.rs.ext.Provider;

import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.function.Function;

/**
 * Path and query parameters as value types, parsed once at the edge, so resources take a {@link Workspace} or an
 * {@link ArtifactId} instead of a string. A value that does not parse is a 400 {@code invalid-request} naming the
 * field, as the value type words it: JAX-RS would answer a failing converter on a path parameter with 404, so the
 * refusal travels as an {@link InvalidParameter}, which JAX-RS passes on as it is.
 */
@Provider
public class TypedParameters implements ParamConverterProvider {

    /** Actions are the only records numbered within their incident that a path addresses. */
    private static final Map<Class<?>, Function<String, ?>> PARSERS = Map.of(
            Workspace.class, Workspace::parse,
            IncidentKey.class, IncidentKey::parse,
            ArtifactId.class, ArtifactId::parse,
            FindingId.class, FindingId::parse,
            SequenceId.class, text -> SequenceId.parse(SequenceId.ACTION, text),
            Digest.class, Digest::parse);

    @Override
    @SuppressWarnings("unchecked")
    public <T> ParamConverter<T> getConverter(Class<T> rawType, Type genericType, Annotation[] annotations) {
        Function<String, ?> parser = PARSERS.get(rawType);
        return parser == null ? null : new Converter<>((Function<String, T>) parser);
    }

    private record Converter<T>(Function<String, T> parser) implements ParamConverter<T> {

        @Override
        public T fromString(String value) {
            try {
                return parser.apply(value);
            } catch (Refusal refusal) {
                throw new InvalidParameter(refusal);
            }
        }

        @Override
        public String toString(T value) {
            return value.toString();
        }
    }
}
