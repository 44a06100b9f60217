package dev.evidencestore.api;

import dev.evidencestore.audit.AuditEntry;
import dev.evidencestore.audit.AuditLog;
import dev.evidencestore.domain.Page;
import dev.evidencestore.domain.Workspace;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/** A workspace's audit entries; WorkspaceGate decides who may read them, as for the rest of the workspace. */
@Path("/api/v1/workspaces/{workspace}/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {


    private final AuditLog log;

    AuditResource(AuditLog log) {
        this.log = log;
    }

    @GET
    @PermitAll
    public Response list(@PathParam("workspace") Workspace workspace,
                         @QueryParam("limit") String limit,
                         @QueryParam("cursor") String cursor,
                         @Context UriInfo uri) {
        PageRequest request = PageRequest.parse(limit, cursor);
        Page<AuditEntry> page = log.list(workspace, request.limit(), request.after());
        String next = page.next() == null ? null : page.next().toString();
        return PageRequest.linkNext(Response.ok(new AuditPageResponse(
                page.items().stream().map(AuditEntryResponse::of).toList(), next)), uri, next).build();
    }
}
