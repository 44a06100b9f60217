package dev.evidencestore.http;

import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The headers every HTML answer of the service carries, its web pages and the API's HTML postmortem alike: no
 * script, no frame, no form and no foreign resource, since none of them needs any, and no guessing of the media
 * type. Should record text ever slip markup into a page, the browser still runs none of it. The names and values
 * are constants so that a resource can declare them in annotations.
 */
public final class PageHeaders {

    public static final String CONTENT_SECURITY_POLICY = "Content-Security-Policy";
    public static final String POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    public static final String CONTENT_TYPE_OPTIONS = "X-Content-Type-Options";
    public static final String NO_SNIFF = "nosniff";
    public static final String REFERRER_POLICY = "Referrer-Policy";
    public static final String SAME_ORIGIN = "same-origin";

    private static final Map<String, String> ALL = Map.of(
            CONTENT_SECURITY_POLICY, POLICY,
            CONTENT_TYPE_OPTIONS, NO_SNIFF,
            REFERRER_POLICY, SAME_ORIGIN);

    private PageHeaders() {
    }

    /** Hands each header to a setter, such as a response filter's {@code putSingle}. */
    public static void addTo(BiConsumer<String, String> setter) {
        ALL.forEach(setter);
    }
}
