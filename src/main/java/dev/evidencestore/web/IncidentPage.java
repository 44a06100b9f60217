package dev.evidencestore.web;

import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
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
    public Response incident(@PathParam("workspace") String workspace, @PathParam("key") String key) {
        Workspace ws = Workspace.parse(workspace);
        IncidentKey incidentKey = IncidentKey.parse(key);
        Incident incident = incidents.get(ws, incidentKey);
        IncidentHeader header = new IncidentHeader(ws.slug(), Html.workspace(ws), incidentKey.value(),
                Html.incident(ws, incidentKey), incident.details().title(), incident.details().severity().wire(), incident.details().status().wire(),
                "/api/v1" + Html.incident(ws, incidentKey));
        // the one raw insert of the pages: CommonMark escaped every piece of record text in it already
        RawString postmortem = new RawString(CitationLinks.link(postmortems.html(ws, incidentKey)));
        return Html.page(Templates.incident(header, postmortem).render());
    }
}
