package dev.evidencestore.web;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.ArtifactKind;
import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.Referrer;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.http.Routes;
import dev.evidencestore.service.ArtifactService;
import dev.evidencestore.service.IncidentService;
import dev.evidencestore.service.PreviewService;
import dev.evidencestore.service.ReferrerService;
import dev.evidencestore.service.VerificationService;
import dev.evidencestore.service.WorkspaceDirectory;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.RawString;
import io.quarkus.qute.TemplateInstance;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * An artifact's page: the evidence itself as a preview (charts, a diff, tables), what it is, how it was captured
 * beside what its bytes say, its digest, every verification of its stored bytes, what rests on it, and how to
 * download it and check the download locally.
 */
@Path("/artifacts/{id}")
public class ArtifactPage {

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance artifact(ArtifactView artifact, PreviewSection.View preview,
                                                List<VerificationRow> verifications, List<ReferrerRow> citedBy);
    }

    public record ArtifactView(String id, String name, String workspace, String workspaceHref, String incidentKey,
                               String incidentTitle, String incidentHref, String mediaType, String source,
                               String kind, boolean sourceUnavailable, String capturedAt, String capturedAtIso,
                               String createdAt, String createdAtIso, String createdBy, RawString description,
                               String capture, String digest, String size, String downloadHref,
                               String checkCommand, boolean needsToken, boolean needsAddress, String apiHref) {
    }

    public record VerificationRow(boolean verified, String at, String atIso, String by, String computed,
                                  String claimed, boolean unreadable) {
    }

    public record ReferrerRow(String kind, String id, String href, String status, String pinned, String via,
                              String viaHref) {
    }

    private final ArtifactService artifacts;
    private final IncidentService incidents;
    private final VerificationService verifications;
    private final ReferrerService referrers;
    private final WorkspaceDirectory directory;
    private final PreviewService previews;
    private final Optional<URI> publicUrl;

    ArtifactPage(ArtifactService artifacts, IncidentService incidents, VerificationService verifications,
                 ReferrerService referrers, WorkspaceDirectory directory, PreviewService previews,
                 EvidenceConfig config) {
        this.previews = previews;
        this.publicUrl = config.http().publicUrl();
        this.artifacts = artifacts;
        this.incidents = incidents;
        this.verifications = verifications;
        this.referrers = referrers;
        this.directory = directory;
    }

    @GET
    @PermitAll
    @Produces(Html.MEDIA_TYPE)
    public Response artifact(@PathParam("id") ArtifactId id, @QueryParam("timeline") String timeline) {
        Artifact artifact = artifacts.get(id);
        Incident incident = incidents.get(id.workspace(), id.incident());
        String incidentHref = Html.incident(id.workspace(), id.incident());
        String download = Html.content(id);
        boolean needsToken = !directory.isPublic(id.workspace());
        ArtifactView view = new ArtifactView(id.toString(), id.name().value(),
                id.workspace().slug(), Html.workspace(id.workspace()), id.incident().value(),
                incident.details().title(), incidentHref, artifact.mediaType(), artifact.source(),
                artifact.kind().wire(), artifact.kind() == ArtifactKind.SOURCE_UNAVAILABLE,
                Html.time(artifact.capturedAt()), Html.iso(artifact.capturedAt()), Html.time(artifact.createdAt()),
                Html.iso(artifact.createdAt()), artifact.createdBy(),
                artifact.description() == null ? null : Html.text(artifact.description()),
                Html.prettyJson(artifact.capture()), artifact.digest().toString(),
                Html.size(artifact.size()), download,
                CheckCommand.of(CheckCommand.source(publicUrl, download), id.name().value(), artifact.digest(),
                        needsToken),
                needsToken, publicUrl.isEmpty(), Routes.artifact(id).toString());
        List<VerificationRow> checks = verifications.list(id).stream()
                .map(v -> verification(artifact, v)).toList();
        List<ReferrerRow> citedBy = referrers.referrers(id).stream()
                .map(r -> referrer(r, incidentHref)).toList();
        boolean allEntries = "all".equals(timeline);
        PreviewSection.View preview = PreviewSection.of(previews.preview(id, allEntries), id, allEntries);
        return Html.page(Templates.artifact(view, preview, checks, citedBy).render());
    }

    private static VerificationRow verification(Artifact artifact, VerificationResult v) {
        // the computed digest is worth showing only when it is not the recorded one
        String computed = v.computedDigest() == null || v.computedDigest().equals(artifact.digest()) ? null
                : v.computedDigest().toString();
        return new VerificationRow(v.verified(), Html.time(v.verifiedAt()), Html.iso(v.verifiedAt()), v.verifiedBy(),
                computed, v.claimedDigest() == null ? null : v.claimedDigest().toString(), v.computedDigest() == null);
    }

    private static ReferrerRow referrer(Referrer referrer, String incidentHref) {
        // findings have pages; root causes and timeline entries are parts of the incident's page, anchored by ID
        String href = Referrer.FINDING.equals(referrer.kind()) ? Html.finding(referrer.id())
                : incidentHref + "#" + referrer.id();
        return new ReferrerRow(referrer.kind(), referrer.id(), href, referrer.status(), Html.digest(referrer.digest()),
                referrer.via(), referrer.via() == null ? null : Html.finding(referrer.via()));
    }
}
