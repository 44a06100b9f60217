package dev.evidencestore.http;

import io.vertx.ext.web.RoutingContext;

import java.util.Arrays;

/**
 * What a request will use, told from its method and path alone, cheaply, on the event loop before anything else
 * runs: admission gives each kind its own slots, so that slow downloads never take the slots of writes, metadata
 * reads or health checks. The one place that knows which routes stream; {@code RequestKindTest} checks it against
 * every operation of the contract, so a new streaming route cannot be left out.
 */
public enum RequestKind {
    /** Large bodies streamed to the client: blob bytes, artifact content, evidence bundles. */
    DOWNLOAD,
    /** Blob bytes streamed from the client into the store, alone or as a batch of artifacts. */
    UPLOAD,
    /** Everything else of the API and the pages: small answers, JSON bodies. */
    OTHER,
    /** Health, metrics and the OpenAPI document, answered whatever the load. */
    UNCOUNTED;

    private static final String UNCOUNTED_PREFIX = "/q/";

    private static final String CONTEXT_KEY = RequestKind.class.getName();

    /** Keeps this kind on the request's routing context, for the stages after admission ({@link #admitted}). */
    void keepOn(RoutingContext context) {
        context.put(CONTEXT_KEY, this);
    }

    /** The kind {@link AdmissionControl} told for the request and kept; null before admission. */
    static RequestKind admitted(RoutingContext context) {
        return context.get(CONTEXT_KEY);
    }

    /**
     * The kind of a request to {@code path} (as sent, not decoded: the routes that stream have no escapes in their
     * fixed segments). Empty segments are skipped as the router skips them, so {@code //api/v1/blobs/x/} is still
     * a blob.
     */
    public static RequestKind of(String method, String path) {
        if (path.startsWith(UNCOUNTED_PREFIX)) {
            return UNCOUNTED;
        }
        String[] segments = segments(path);
        if ("GET".equals(method) && streams(segments)) {
            return DOWNLOAD;
        }
        if (("PUT".equals(method) && isBlob(segments))
                || ("POST".equals(method) && (isBlobs(segments) || isArtifactBatches(segments)))) {
            return UPLOAD;
        }
        return OTHER;
    }

    private static boolean streams(String[] s) {
        return isBlob(s)
                || (s.length == 5 && isApi(s) && "artifacts".equals(s[2]) && "content".equals(s[4]))
                || (s.length == 7 && isApi(s) && "workspaces".equals(s[2]) && "incidents".equals(s[4])
                        && "evidence-bundle".equals(s[6]));
    }

    /** A PUT of one blob to its digest: an upload whose client names, in its path, the digest its bytes must have. */
    public static boolean putsBlobAtDigest(String method, String path) {
        return "PUT".equals(method) && isBlob(segments(path));
    }

    private static boolean isArtifactBatches(String[] s) {
        return s.length == 7 && isApi(s) && "workspaces".equals(s[2]) && "incidents".equals(s[4])
                && "artifact-batches".equals(s[6]);
    }

    private static boolean isBlobs(String[] s) {
        return s.length == 3 && isApi(s) && "blobs".equals(s[2]);
    }

    private static boolean isBlob(String[] s) {
        return s.length == 4 && isApi(s) && "blobs".equals(s[2]);
    }

    private static boolean isApi(String[] s) {
        return "api".equals(s[0]) && "v1".equals(s[1]);
    }

    private static String[] segments(String path) {
        int query = path.indexOf('?');
        String bare = query < 0 ? path : path.substring(0, query);
        return Arrays.stream(bare.split("/")).filter(segment -> !segment.isEmpty()).toArray(String[]::new);
    }
}
