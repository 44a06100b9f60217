package dev.evidencestore.web;

import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.Routes;
import dev.evidencestore.service.IncidentService;
import dev.evidencestore.service.PostmortemService;
import dev.evidencestore.service.PreviewService;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.RawString;
import io.quarkus.qute.TemplateInstance;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

/**
 * An incident's page: its postmortem, generated from the record, with every cited ID linked to its page, an anchor
 * on every part of the record, and the charts of its evidence beside the chronology.
 */
@Path("/workspaces/{workspace}/incidents/{key}")
public class IncidentPage {

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance incident(IncidentHeader incident, RawString chronology,
                                                ChartThumbnails.Thumbnails evidence, RawString rest);
    }

    public record IncidentHeader(String workspace, String workspaceHref, String key, String href, String title,
                                 String severity, String status, String apiHref) {
    }

    /** Where the evidence charts go: after the chronology, before the detection and diagnosis. */
    private static final String AFTER_CHRONOLOGY = "<h2 id=\"detection-and-diagnosis\">";

    private final IncidentService incidents;
    private final PostmortemService postmortems;
    private final PreviewService previews;

    IncidentPage(IncidentService incidents, PostmortemService postmortems, PreviewService previews) {
        this.incidents = incidents;
        this.postmortems = postmortems;
        this.previews = previews;
    }

    @GET
    @PermitAll
    @Produces(Html.MEDIA_TYPE)
    public Response incident(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        Incident incident = incidents.get(workspace, key);
        IncidentHeader header = new IncidentHeader(workspace.slug(), Html.workspace(workspace), key.value(),
                Html.incident(workspace, key), incident.details().title(), incident.details().severity().wire(), incident.details().status().wire(),
                Routes.incident(workspace, key).toString());
        PostmortemService.Page page = postmortems.page(workspace, key);
        // the one raw insert of the pages: CommonMark escaped every piece of record text in it already
        String html = CitationLinks.link(page.html());
        int split = html.indexOf(AFTER_CHRONOLOGY);
        split = split < 0 ? html.length() : split;
        return Html.page(Templates.incident(header, new RawString(html.substring(0, split)),
                ChartThumbnails.of(page.record(), previews), new RawString(html.substring(split))).render());
    }
}
