package dev.evidencestore.http;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every route template the JAX-RS resources answer, as their {@code @Path} annotations spell it, and which one a raw
 * request path falls under. A request refused before JAX-RS matched it (admission, the router) is named by the
 * template it would have reached, so that nothing that counts requests by path keeps the IDs and digests of paths.
 */
final class RouteTemplates {

    private static final Pattern PARAMETER = Pattern.compile("\\{[^}]+}");

    /** Template to its pattern, the most literal first, as JAX-RS prefers a literal segment to a parameter. */
    private final Map<String, Pattern> patterns = new LinkedHashMap<>();

    private RouteTemplates(Collection<String> templates) {
        templates.stream()
                .sorted(Comparator.comparingInt(RouteTemplates::literalLength).reversed()
                        .thenComparing(Comparator.naturalOrder()))
                .forEach(template -> patterns.put(template, pattern(template)));
    }

    /** The templates of these resource classes, their own {@code @Path} joined with each of their methods'. */
    static RouteTemplates of(Collection<Class<?>> resources) {
        TreeSet<String> templates = new TreeSet<>();
        for (Class<?> resource : resources) {
            Path base = resource.getAnnotation(Path.class);
            if (base == null) {
                continue;
            }
            for (Method method : resource.getMethods()) {
                if (answers(method)) {
                    Path sub = method.getAnnotation(Path.class);
                    templates.add(join(base.value(), sub == null ? "" : sub.value()));
                }
            }
        }
        return new RouteTemplates(templates);
    }

    /** A resource method: one with an HTTP method ({@code @GET}, {@code @POST}, ...). */
    private static boolean answers(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            if (annotation.annotationType().isAnnotationPresent(HttpMethod.class)) {
                return true;
            }
        }
        return false;
    }

    List<String> templates() {
        return List.copyOf(patterns.keySet());
    }

    boolean isTemplate(String value) {
        return patterns.containsKey(value);
    }

    /** The template {@code path} (a request's raw path) falls under, if any. */
    Optional<String> match(String path) {
        String normalized = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        for (Map.Entry<String, Pattern> template : patterns.entrySet()) {
            if (template.getValue().matcher(normalized).matches()) {
                return Optional.of(template.getKey());
            }
        }
        return Optional.empty();
    }

    /** As Quarkus REST writes a template: one leading slash, none at the end, none doubled. */
    private static String join(String base, String sub) {
        String joined = ("/" + base + "/" + sub).replaceAll("/+", "/");
        return joined.length() > 1 && joined.endsWith("/") ? joined.substring(0, joined.length() - 1) : joined;
    }

    private static Pattern pattern(String template) {
        StringBuilder regex = new StringBuilder();
        Matcher parameters = PARAMETER.matcher(template);
        int literal = 0;
        while (parameters.find()) {
            regex.append(Pattern.quote(template.substring(literal, parameters.start()))).append("[^/]+");
            literal = parameters.end();
        }
        regex.append(Pattern.quote(template.substring(literal)));
        return Pattern.compile(regex.toString());
    }

    private static int literalLength(String template) {
        return PARAMETER.matcher(template).replaceAll("").length();
    }
}
