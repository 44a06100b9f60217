package dev.evidencestore.web;

import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.Page;
import dev.evidencestore.domain.PageCursor;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.security.Actor;
import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.service.IncidentService;
import dev.evidencestore.service.WorkspaceDirectory;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * The start page: every workspace the caller may read, each with its newest incidents; and one workspace's
 * incidents page by page. The root has no workspace in its path, so the gate lets everyone in and this page shows
 * only what the caller may read: the public-read workspaces, and those the token holds.
 */
@Path("/")
public class HomePage {

    static final int ON_HOME = 20;
    static final int PER_PAGE = 50;

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance home(List<WorkspaceSection> workspaces, boolean anonymous);

        static native TemplateInstance workspace(WorkspaceSection workspace, boolean first);
    }

    /** A workspace and a page of its incidents, newest first; {@code olderHref} is null on the last page. */
    public record WorkspaceSection(String slug, String href, boolean open, List<IncidentRow> incidents,
                                   String olderHref) {
    }

    public record IncidentRow(String key, String href, String title, String severity, String status,
                              String opened, String openedIso) {
    }

    private final WorkspaceDirectory directory;
    private final IncidentService incidents;
    private final CurrentActor actor;

    HomePage(WorkspaceDirectory directory, IncidentService incidents, CurrentActor actor) {
        this.directory = directory;
        this.incidents = incidents;
        this.actor = actor;
    }

    @GET
    @PermitAll
    @Produces(Html.MEDIA_TYPE)
    public Response home() {
        Actor caller = actor.get();
        List<WorkspaceSection> sections = directory.readable(caller).stream()
                .map(workspace -> section(workspace, ON_HOME, null)).toList();
        return Html.page(Templates.home(sections, caller.anonymous()).render());
    }

    @GET
    @PermitAll
    @Path("workspaces/{workspace}")
    @Produces(Html.MEDIA_TYPE)
    public Response workspace(@PathParam("workspace") Workspace workspace, @QueryParam("cursor") String cursor) {
        PageCursor after = cursor == null || cursor.isEmpty() ? null : PageCursor.parse(cursor);
        return Html.page(Templates.workspace(section(workspace, PER_PAGE, after), after == null).render());
    }

    private WorkspaceSection section(Workspace workspace, int limit, PageCursor after) {
        Page<Incident> page = incidents.list(workspace, limit, after);
        List<IncidentRow> rows = page.items().stream().map(HomePage::row).toList();
        String older = page.next() == null ? null : Html.workspace(workspace) + "?cursor=" + page.next();
        return new WorkspaceSection(workspace.slug(), Html.workspace(workspace), directory.isPublic(workspace), rows,
                older);
    }

    private static IncidentRow row(Incident incident) {
        return new IncidentRow(incident.key().value(), Html.incident(incident.workspace(), incident.key()),
                incident.details().title(), incident.details().severity().wire(), incident.details().status().wire(),
                Html.time(incident.createdAt()), Html.iso(incident.createdAt()));
    }
}
