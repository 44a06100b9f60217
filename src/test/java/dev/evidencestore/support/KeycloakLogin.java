package dev.evidencestore.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Signs a realm user in to the service's pages as a browser does, without one: {@code /sign-in}, Keycloak's login
 * form, and back to the service with the authorization code, following each redirect by hand. It keeps each side's
 * cookies as a browser keeps them for {@code localhost}, which counts as a secure context: Keycloak marks its
 * cookies {@code Secure} even over plain HTTP, and {@link java.net.CookieManager} would not send those back.
 */
public final class KeycloakLogin {

    /** quarkus-oidc's session cookie, in one piece or in {@code q_session_chunk_N} pieces. */
    public static final String SESSION_COOKIE = "q_session";
    private static final Pattern FORM_ACTION =
            Pattern.compile("<form[^>]*id=\"kc-form-login\"[^>]*action=\"([^\"]+)\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    /** The cookies of each origin ({@code localhost:port}), by name. */
    private final Map<String, Map<String, String>> jars = new HashMap<>();

    private KeycloakLogin() {
    }

    /**
     * How the service answered the browser's return from Keycloak: its status, where it sent the browser, the
     * cookies it set as sent, its body, and the session cookies (none when it refused the sign-in).
     */
    public record Outcome(int status, String location, List<String> setCookies, String body,
                          Map<String, String> sessionCookies) {
    }

    /** Signs {@code user} in at the service on {@code port}, starting from {@code /sign-in?to=...} when to is given. */
    public static Outcome signIn(int port, String user, String to) {
        return new KeycloakLogin().run(port, user, to);
    }

    private Outcome run(int port, String user, String to) {
        String start = "http://localhost:" + port + "/sign-in"
                + (to == null ? "" : "?to=" + URLEncoder.encode(to, StandardCharsets.UTF_8));
        HttpResponse<String> loginForm = follow(location(send(get(start))));
        Matcher action = FORM_ACTION.matcher(loginForm.body());
        if (!action.find()) {
            throw new IllegalStateException("no login form in Keycloak's answer " + loginForm.statusCode() + ": "
                    + loginForm.body());
        }
        String credentials = "username=" + user + "&password=" + KeycloakServer.password(user) + "&credentialId=";
        HttpResponse<String> back = send(HttpRequest.newBuilder(URI.create(action.group(1).replace("&amp;", "&")))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(credentials)));
        HttpResponse<String> callback = send(get(location(back)));
        Map<String, String> session = jar(callback.uri()).entrySet().stream()
                .filter(cookie -> cookie.getKey().startsWith(SESSION_COOKIE))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
        return new Outcome(callback.statusCode(), callback.headers().firstValue("Location").orElse(null),
                callback.headers().allValues("Set-Cookie"), callback.body(), session);
    }

    /** Keycloak may redirect within itself before it shows its form. */
    private HttpResponse<String> follow(String uri) {
        HttpResponse<String> response = send(get(uri));
        for (int hops = 0; hops < 5 && response.statusCode() / 100 == 3; hops++) {
            response = send(get(location(response)));
        }
        return response;
    }

    private static HttpRequest.Builder get(String uri) {
        return HttpRequest.newBuilder(URI.create(uri)).GET();
    }

    private static String location(HttpResponse<String> response) {
        return response.headers().firstValue("Location").orElseThrow(() -> new IllegalStateException(
                response.uri() + " answered " + response.statusCode() + " without a redirect: " + response.body()));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        HttpRequest built = request.build();
        Map<String, String> jar = jar(built.uri());
        if (!jar.isEmpty()) {
            built = request.header("Cookie", jar.entrySet().stream().map(c -> c.getKey() + "=" + c.getValue())
                    .collect(Collectors.joining("; "))).build();
        }
        try {
            HttpResponse<String> response = HTTP.send(built,
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            response.headers().allValues("Set-Cookie").forEach(cookie -> keep(jar, cookie));
            return response;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Map<String, String> jar(URI uri) {
        return jars.computeIfAbsent(uri.getHost() + ":" + uri.getPort(), origin -> new LinkedHashMap<>());
    }

    /** A cookie set, or removed when it expires at once or is emptied. */
    private static void keep(Map<String, String> jar, String setCookie) {
        String[] attributes = setCookie.split(";");
        String[] nameValue = attributes[0].split("=", 2);
        String name = nameValue[0].strip();
        String value = nameValue.length > 1 ? nameValue[1].strip() : "";
        boolean expired = value.isEmpty() || setCookie.toLowerCase().contains("max-age=0");
        if (expired) {
            jar.remove(name);
        } else {
            jar.put(name, value);
        }
    }
}
