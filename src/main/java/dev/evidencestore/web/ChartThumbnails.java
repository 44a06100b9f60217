package dev.evidencestore.web;

import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.IncidentRecord;
import dev.evidencestore.preview.Chart;
import dev.evidencestore.preview.ChartSvg;
import dev.evidencestore.preview.DashboardPreview;
import dev.evidencestore.preview.Preview;
import dev.evidencestore.preview.WorkloadPreview;
import dev.evidencestore.service.ArtifactPreview;
import dev.evidencestore.service.PreviewService;
import io.quarkus.qute.RawString;

import java.util.ArrayList;
import java.util.List;

/**
 * The charts of an incident's evidence, small, beside its chronology on the incident page: each with the
 * incident's impact window and the timeline entries citing its artifact, each linking to the chart on its
 * artifact's page. At most {@link #MAX_ARTIFACTS} artifacts are drawn, so a page costs a bounded number of previews.
 */
final class ChartThumbnails {

    static final int MAX_ARTIFACTS = 6;

    public record Thumbnails(List<Evidence> evidence, int more) {
    }

    public record Evidence(String id, String href, String name, RawString description, List<Thumbnail> charts) {
    }

    public record Thumbnail(String title, String href, RawString svg) {
    }

    private ChartThumbnails() {
    }

    static Thumbnails of(IncidentRecord record, PreviewService previews) {
        List<Evidence> evidence = new ArrayList<>();
        int more = 0;
        for (Artifact artifact : record.artifacts()) {
            if (!previews.drawsCharts(artifact)) {
                continue;
            }
            if (evidence.size() == MAX_ARTIFACTS) {
                more++;
                continue;
            }
            ArtifactPreview preview = previews.preview(artifact, record);
            List<Chart> charts = charts(preview);
            if (charts.isEmpty()) {
                continue;
            }
            String href = Html.artifact(artifact.id());
            List<Thumbnail> thumbnails = new ArrayList<>();
            for (int i = 0; i < charts.size(); i++) {
                // the artifact page numbers its charts the same way, from 1
                String svgId = "evidence-" + (evidence.size() + 1) + "-chart-" + (i + 1);
                thumbnails.add(new Thumbnail(charts.get(i).title(), href + "#chart-" + (i + 1),
                        new RawString(ChartSvg.render(charts.get(i), preview.overlay(), svgId))));
            }
            evidence.add(new Evidence(artifact.id().toString(), href, artifact.id().name().value(),
                    Html.text(artifact.description()), thumbnails));
        }
        return new Thumbnails(evidence, more);
    }

    private static List<Chart> charts(ArtifactPreview preview) {
        if (preview.shown() == null) {
            return List.of();
        }
        Preview shown = preview.shown().preview();
        if (shown instanceof DashboardPreview dashboard) {
            return dashboard.charts();
        }
        return shown instanceof WorkloadPreview workload ? workload.charts() : List.of();
    }
}
