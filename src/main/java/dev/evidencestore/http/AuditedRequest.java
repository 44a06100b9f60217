package dev.evidencestore.http;

import dev.evidencestore.audit.AuditEvent;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.security.RequestedWorkspace;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.PathSegment;
import jakarta.ws.rs.core.UriInfo;

import java.net.URI;
import java.util.List;
import java.util.Set;

/**
 * What the audit log records of a request: who asked, the method and path, the workspace and ID in its path, what
 * it created (the path of its Location), the status answered, a refusal's problem slug, and whether it was a replay.
 * One description for both places that write entries: the write's own transaction and the audit filter.
 */
final class AuditedRequest {

    /** The collections whose records are addressed by a readable ID in the path. */
    private static final Set<String> ID_COLLECTIONS = Set.of("artifacts", "findings", "actions");

    private AuditedRequest() {
    }

    static AuditEvent event(String actor, String method, UriInfo uri, int status, URI location, String problem,
                            boolean replayed) {
        MultivaluedMap<String, String> parameters = parametersOf(uri);
        return new AuditEvent(actor, workspaceOf(parameters), method, uri.getRequestUri().getPath(),
                AuditEvent.target(location, parameters.getFirst("id")), status, problem, replayed);
    }

    /**
     * The path parameters. A request refused for its media types had none extracted, so the two the audit records
     * are read from the path, in the two shapes of the contract: {@code /api/v1/workspaces/{workspace}/…} and
     * {@code /api/v1/{artifacts|findings|actions}/{id}/…}.
     */
    private static MultivaluedMap<String, String> parametersOf(UriInfo uri) {
        MultivaluedMap<String, String> parameters = uri.getPathParameters();
        if (!parameters.isEmpty()) {
            return parameters;
        }
        List<String> segments = uri.getPathSegments().stream().map(PathSegment::getPath)
                .filter(segment -> !segment.isEmpty()).toList();
        MultivaluedMap<String, String> read = new MultivaluedHashMap<>();
        if (segments.size() >= 4 && segments.get(0).equals("api") && segments.get(1).equals("v1")) {
            String collection = segments.get(2);
            if (collection.equals("workspaces")) {
                read.putSingle("workspace", segments.get(3));
            } else if (ID_COLLECTIONS.contains(collection)) {
                read.putSingle("id", segments.get(3));
            }
        }
        return read;
    }

    /** The workspace in the path, or in the ID in the path; null when there is none or it is malformed. */
    private static String workspaceOf(MultivaluedMap<String, String> parameters) {
        String workspace = RequestedWorkspace.of(parameters);
        try {
            return workspace == null ? null : Workspace.parse(workspace).slug();
        } catch (Refusal malformed) {
            return null;
        }
    }
}
