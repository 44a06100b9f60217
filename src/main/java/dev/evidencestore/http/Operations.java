package dev.evidencestore.http;

import jakarta.ws.rs.Path;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The name of the operation a request asked for, as an aggregate audit entry lists it: the method and the route
 * template, such as {@code POST /api/v1/artifacts/{id}/verifications}, never the path the client sent; a method
 * the path has no operation for is named with {@code *} for its template. Bounded: the templates are the service's,
 * and the method is cut to a short HTTP token.
 */
final class Operations {

    private static final int MAX_METHOD = 16;
    /** One per resource method the service has. */
    private static final Map<String, String> TEMPLATES = new ConcurrentHashMap<>();

    private Operations() {
    }

    static String of(String method, SimpleResourceInfo resource) {
        String template = resource == null || resource.getMethodName() == null ? "*" : templateOf(resource);
        return token(method) + " " + template;
    }

    private static String templateOf(SimpleResourceInfo resource) {
        String key = resource.getResourceClass().getName() + "#" + resource.getMethodName()
                + Arrays.toString(resource.parameterTypes());
        return TEMPLATES.computeIfAbsent(key, k -> read(resource));
    }

    private static String read(SimpleResourceInfo resource) {
        Path root = resource.getResourceClass().getAnnotation(Path.class);
        String template = root == null ? "" : root.value();
        try {
            Method method = resource.getResourceClass().getMethod(resource.getMethodName(),
                    resource.parameterTypes());
            Path path = method.getAnnotation(Path.class);
            return path == null ? template : template + path.value();
        } catch (NoSuchMethodException e) {
            return template.isEmpty() ? "*" : template;
        }
    }

    /** The method as an HTTP token (RFC 9110) of at most a few characters: anything else becomes {@code ?}. */
    private static String token(String method) {
        StringBuilder token = new StringBuilder();
        for (int i = 0; i < method.length() && token.length() < MAX_METHOD; i++) {
            char c = method.charAt(i);
            boolean allowed = c < 0x7f && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0);
            token.append(allowed ? c : '?');
        }
        return token.toString();
    }
}
