package dev.evidencestore.web;

import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.Routes;
import dev.evidencestore.service.IncidentService;
import dev.evidencestore.service.PostmortemService;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.RawString;
import io.quarkus.qute.TemplateInstance;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

/** An incident's page: its postmortem, generated from the record, with every cited ID linked to its page. */
@Path("/workspaces/{workspace}/incidents/{key}")
public class IncidentPage {

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance incident(IncidentHeader incident, RawString postmortem);
    }

    public record IncidentHeader(String workspace, String workspaceHref, String key, String href, String title,
                                 String severity, String status, String apiHref) {
    }

    private final IncidentService incidents;
    private final PostmortemService postmortems;

    IncidentPage(IncidentService incidents, PostmortemService postmortems) {
        this.incidents = incidents;
        this.postmortems = postmortems;
    }

    @GET
    @PermitAll
    @Produces(Html.MEDIA_TYPE)
    public Response incident(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        Incident incident = incidents.get(workspace, key);
        IncidentHeader header = new IncidentHeader(workspace.slug(), Html.workspace(workspace), key.value(),
                Html.incident(workspace, key), incident.details().title(), incident.details().severity().wire(), incident.details().status().wire(),
                Routes.incident(workspace, key).toString());
        // the one raw insert of the pages: CommonMark escaped every piece of record text in it already
        RawString postmortem = new RawString(CitationLinks.link(postmortems.html(workspace, key)));
        return Html.page(Templates.incident(header, postmortem).render());
    }
}
