package dev.evidencestore.security;

import jakarta.ws.rs.core.MultivaluedMap;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Which workspace a routed request touches: its {@code workspace} path parameter, or the one inside its ID. */
public final class RequestedWorkspace {

    /** The workspace segment of a readable ID such as {@code artifact:demo:v1:INC-1423:grafana-checkout}. */
    private static final Pattern ID_WORKSPACE = Pattern.compile("^[a-z-]+:([^:]*):");

    private RequestedWorkspace() {
    }

    /**
     * The workspace as written in the path (not yet validated); null when the route has no workspace (blobs, the
     * audit chain), and empty when an ID names none readable.
     */
    public static String of(MultivaluedMap<String, String> pathParameters) {
        String workspace = pathParameters.getFirst("workspace");
        if (workspace != null) {
            return workspace;
        }
        String id = pathParameters.getFirst("id");
        if (id == null) {
            return null;
        }
        Matcher m = ID_WORKSPACE.matcher(id);
        return m.find() ? m.group(1) : "";
    }
}
