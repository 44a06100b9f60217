package dev.evidencestore.api;

import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.ClientDownload;
import dev.evidencestore.http.ContentDigestHeader;
import dev.evidencestore.http.PageHeaders;
import dev.evidencestore.http.Routes;
import dev.evidencestore.render.EvidenceBundle;
import dev.evidencestore.render.EvidenceManifest;
import dev.evidencestore.service.PostmortemService;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.ResponseHeader;

/** What leaves the service about an incident: the postmortem page, the evidence manifest and the evidence bundle. */
@Path(Routes.INCIDENTS + Routes.INCIDENT)
public class PostmortemResource {

    static final String MARKDOWN = "text/markdown; charset=UTF-8";
    static final String HTML = "text/html; charset=UTF-8";
    static final String ZIP = "application/zip";

    private final PostmortemService postmortems;

    PostmortemResource(PostmortemService postmortems) {
        this.postmortems = postmortems;
    }

    @GET
    @PermitAll
    @Path("/postmortem")
    @Produces(MARKDOWN)
    public String markdown(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        return postmortems.markdown(workspace, key);
    }

    @GET
    @PermitAll
    @Path("/postmortem")
    @Produces(HTML)
    // a browser may open this form directly: it gets the same guard as the web pages
    @ResponseHeader(name = PageHeaders.CONTENT_SECURITY_POLICY, value = PageHeaders.POLICY)
    @ResponseHeader(name = PageHeaders.CONTENT_TYPE_OPTIONS, value = PageHeaders.NO_SNIFF)
    @ResponseHeader(name = PageHeaders.REFERRER_POLICY, value = PageHeaders.SAME_ORIGIN)
    public String html(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        return postmortems.html(workspace, key);
    }

    @GET
    @PermitAll
    @Path("/evidence-manifest")
    @Produces(EvidenceManifest.MEDIA_TYPE)
    public Response manifest(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                             @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        EvidenceManifest manifest = postmortems.manifest(workspace, key);
        String etag = "\"" + manifest.digest() + "\"";
        Response.ResponseBuilder response = EntityTags.matches(ifNoneMatch, etag) ? Response.notModified()
                : Response.ok(manifest.bytes(), EvidenceManifest.MEDIA_TYPE);
        return response.header(HttpHeaders.ETAG, etag)
                .header("Repr-Digest", ContentDigestHeader.format(manifest.digest()))
                .header(HttpHeaders.CACHE_CONTROL, "no-cache").build();
    }

    @GET
    @PermitAll
    @Path("/evidence-bundle")
    @Produces(ZIP)
    public Response bundle(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        EvidenceBundle bundle = postmortems.bundle(workspace, key);
        return Response.ok(ClientDownload.of(bundle::writeTo), ZIP)
                .header("Content-Disposition", "attachment; filename=\"" + workspace + "-" + key + "-evidence.zip\"")
                .build();
    }
}
