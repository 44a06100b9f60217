package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.security.Actor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

import java.util.Set;

/**
 * Who may touch which workspace: public reads, workspace isolation, and a token that grants no role. The workspace
 * gate asks it for every request JAX-RS routes; the reads served from memory ask it too, so both decide alike.
 */
@ApplicationScoped
public class WorkspaceAccess {

    private final Set<String> publicWorkspaces;

    WorkspaceAccess(EvidenceConfig config) {
        this.publicWorkspaces = config.publicReadWorkspaces().orElse(Set.of());
    }

    /** Null when {@code actor} may go on; else the refusal. A workspace the token does not hold answers 404. */
    Response refusal(Actor actor, boolean read, String workspace) {
        if (read && workspace != null && publicWorkspaces.contains(workspace)) {
            return null;
        }
        if (actor.anonymous()) {
            // blobs have no workspace in their path; BlobService decides for them
            return read && workspace == null ? null : Problems.unauthorized("this request needs a valid bearer token");
        }
        if (read && !actor.mayRead()) {
            return Problems.response(ProblemType.FORBIDDEN, "the token grants no role of this service");
        }
        if (workspace != null && !holds(actor, workspace)) {
            return Problems.response(ProblemType.NOT_FOUND, "no such resource");
        }
        return null;
    }

    /** Whether {@code actor} may read in {@code workspace}, a well-formed slug. */
    public boolean mayRead(Actor actor, Workspace workspace) {
        return refusal(actor, true, workspace.slug()) == null;
    }

    private static boolean holds(Actor actor, String workspace) {
        try {
            return actor.holds(Workspace.parse(workspace));
        } catch (RuntimeException malformed) {
            // the resource itself refuses a malformed slug with 400
            return true;
        }
    }
}
