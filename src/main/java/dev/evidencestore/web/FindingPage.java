package dev.evidencestore.web;

import dev.evidencestore.domain.Citation;
import dev.evidencestore.domain.Finding;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.Review;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.http.Routes;
import dev.evidencestore.service.FindingService;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.RawString;
import io.quarkus.qute.TemplateInstance;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

import java.util.List;

/** A finding's page: its statement, the evidence it cites (pinned by digest) and every review. */
@Path("/findings/{id}")
public class FindingPage {

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance finding(FindingView finding, List<CitationRow> citations,
                                               List<ReviewRow> reviews);
    }

    public record FindingView(String id, String name, String workspace, String workspaceHref, String incidentKey,
                              String incidentHref, String kind, String status, RawString statement, String createdBy,
                              String proposedAt, String proposedAtIso, String apiHref) {
    }

    /** {@code verification} is "verified", "failed" or null when the artifact was never verified. */
    public record CitationRow(String artifactId, String href, String pinned, String verification, String verifiedAt,
                              String verifiedAtIso, String verifiedBy) {
    }

    public record ReviewRow(String decision, RawString note, String by, String at, String atIso) {
    }

    private final FindingService findings;

    FindingPage(FindingService findings) {
        this.findings = findings;
    }

    @GET
    @PermitAll
    @Produces(Html.MEDIA_TYPE)
    public Response finding(@PathParam("id") FindingId id) {
        Finding finding = findings.get(id);
        FindingView view = new FindingView(id.toString(), id.name().value(),
                id.workspace().slug(), Html.workspace(id.workspace()), id.incident().value(),
                Html.incident(id.workspace(), id.incident()), finding.kind().wire(),
                finding.status().wire(), Html.text(finding.statement()), finding.createdBy(), Html.time(finding.proposedAt()),
                Html.iso(finding.proposedAt()), Routes.finding(id).toString());
        List<CitationRow> citations = finding.citations().stream().map(FindingPage::citation).toList();
        List<ReviewRow> reviews = finding.reviews().stream().map(FindingPage::review).toList();
        return Html.page(Templates.finding(view, citations, reviews).render());
    }

    private static CitationRow citation(Citation citation) {
        VerificationResult latest = citation.latestVerification();
        return new CitationRow(citation.artifactId().toString(), Html.artifact(citation.artifactId()),
                Html.digest(citation.digest()), latest == null ? null : latest.verified() ? "verified" : "failed",
                latest == null ? null : Html.time(latest.verifiedAt()),
                latest == null ? null : Html.iso(latest.verifiedAt()), latest == null ? null : latest.verifiedBy());
    }

    private static ReviewRow review(Review review) {
        return new ReviewRow(review.decision().wire(), review.note() == null ? null : Html.text(review.note()), review.reviewedBy(), Html.time(review.reviewedAt()),
                Html.iso(review.reviewedAt()));
    }
}
