package dev.evidencestore.web;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.preview.Chart;
import dev.evidencestore.preview.ChartSvg;
import dev.evidencestore.preview.DashboardPreview;
import dev.evidencestore.preview.DiffPreview;
import dev.evidencestore.preview.Disagreement;
import dev.evidencestore.preview.Fact;
import dev.evidencestore.preview.ImagePreview;
import dev.evidencestore.preview.JsonPreview;
import dev.evidencestore.preview.Marker;
import dev.evidencestore.preview.NoPreview;
import dev.evidencestore.preview.Overlay;
import dev.evidencestore.preview.Preview;
import dev.evidencestore.preview.Series;
import dev.evidencestore.preview.TextPreview;
import dev.evidencestore.preview.UnavailablePreview;
import dev.evidencestore.preview.Units;
import dev.evidencestore.preview.Window;
import dev.evidencestore.preview.WorkloadPreview;
import dev.evidencestore.service.ArtifactPreview;
import io.quarkus.qute.RawString;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The evidence section of an artifact page, made from a preview: what the template shows, and nothing it computes. */
final class PreviewSection {

    /** One view for every kind; only the part of the kind at hand is set. */
    public record View(String kind, String state, String checkedAt, String checkedAtIso, String extent,
                       String fallback, List<FactRow> facts, List<DisagreementRow> disagreements,
                       Dashboard dashboard, DiffPreview diff, Workload workload, UnavailablePreview unavailable,
                       String json, List<TextLine> text, String imageHref, String mediaType,
                       List<MarkerRow> entries, String entriesHref, String entriesLinkText, boolean allEntries) {

        public boolean shown() {
            return kind != null;
        }

        public boolean hasCharts() {
            return dashboard != null || workload != null && !workload.charts().isEmpty();
        }
    }

    public record FactRow(String label, List<String> values) {
    }

    public record DisagreementRow(String capture, String declared, String found) {
    }

    public record Dashboard(String title, String uid, List<ChartView> charts, List<DashboardPreview.Undrawn> undrawn,
                            List<MarkerRow> annotations) {
    }

    public record Workload(WorkloadPreview state, List<ChartView> charts) {
    }

    public record ChartView(String id, String title, String unit, RawString svg, List<LegendRow> legend) {
    }

    public record LegendRow(String name, RawString swatch, String min, String max, String last) {
    }

    public record MarkerRow(String number, String time, String timeIso, RawString text, boolean drawn) {
    }

    public record TextLine(int number, String text) {
    }

    private PreviewSection() {
    }

    static View of(ArtifactPreview preview, ArtifactId id, boolean allEntries) {
        String state = preview.state().name().toLowerCase(Locale.ROOT).replace('_', '-');
        String extent = preview.truncated() ? "Showing the first " + Html.size(preview.readBytes()) + " of "
                + Html.size(preview.totalBytes()) + "." : null;
        String entriesHref = Html.artifact(id) + (allEntries ? "" : "?timeline=all") + "#evidence";
        String entriesText = allEntries ? "Mark only the timeline entries that cite this artifact"
                : "Mark every timeline entry of the incident";
        if (preview.shown() == null) {
            return new View(null, state, Html.time(preview.checkedAt()), Html.iso(preview.checkedAt()), null, null,
                    List.of(), List.of(), null, null, null, null, null, null, null, null, List.of(), entriesHref,
                    entriesText, allEntries);
        }
        Preview shown = preview.shown().preview();
        Builder builder = new Builder(preview.overlay());
        Dashboard dashboard = shown instanceof DashboardPreview d ? builder.dashboard(d) : null;
        Workload workload = shown instanceof WorkloadPreview w ? new Workload(w, builder.charts(w.charts())) : null;
        List<TextLine> text = shown instanceof TextPreview t ? numbered(t.lines()) : null;
        List<MarkerRow> entries = dashboard != null || workload != null && !workload.charts().isEmpty()
                ? builder.entries() : List.of();
        return new View(kind(shown), state, Html.time(preview.checkedAt()), Html.iso(preview.checkedAt()), extent,
                preview.shown().fallback(), facts(shown), disagreements(shown), dashboard,
                shown instanceof DiffPreview diff ? diff : null, workload,
                shown instanceof UnavailablePreview u ? u : null,
                shown instanceof JsonPreview json ? json.pretty() : null, text,
                shown instanceof ImagePreview ? Html.content(id) : null,
                shown instanceof NoPreview none ? none.mediaType() : null, entries, entriesHref, entriesText,
                allEntries);
    }

    /** The name the template chooses its part by. */
    private static String kind(Preview preview) {
        if (preview instanceof DashboardPreview) {
            return "dashboard";
        } else if (preview instanceof DiffPreview) {
            return "diff";
        } else if (preview instanceof WorkloadPreview) {
            return "workload";
        } else if (preview instanceof UnavailablePreview) {
            return "unavailable";
        } else if (preview instanceof JsonPreview) {
            return "json";
        } else if (preview instanceof TextPreview) {
            return "text";
        } else if (preview instanceof ImagePreview) {
            return "image";
        }
        return "none";
    }

    private static List<FactRow> facts(Preview preview) {
        return preview.facts().facts().stream().map((Fact f) -> new FactRow(f.label(), f.values())).toList();
    }

    private static List<DisagreementRow> disagreements(Preview preview) {
        return preview.facts().disagreements().stream()
                .map((Disagreement d) -> new DisagreementRow(d.capture(), d.declared(), d.found())).toList();
    }

    private static List<TextLine> numbered(List<String> lines) {
        List<TextLine> numbered = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            numbered.add(new TextLine(i + 1, lines.get(i)));
        }
        return numbered;
    }

    /** Charts of one page, numbered so that their SVG IDs are unique, and the window they cover together. */
    private static final class Builder {
        private final Overlay overlay;
        private Window covered;
        private int next = 1;

        Builder(Overlay overlay) {
            this.overlay = overlay;
        }

        Dashboard dashboard(DashboardPreview preview) {
            List<ChartView> charts = charts(preview.charts());
            List<Marker> annotations = preview.charts().isEmpty() ? List.of() : preview.charts().get(0).annotations();
            List<MarkerRow> rows = new ArrayList<>();
            for (Marker marker : annotations) {
                rows.add(row(null, marker));
            }
            return new Dashboard(preview.title(), preview.uid(), charts, preview.undrawn(), rows);
        }

        List<ChartView> charts(List<Chart> charts) {
            List<ChartView> views = new ArrayList<>();
            for (Chart chart : charts) {
                chart.window().ifPresent(w -> covered = w.union(covered));
                String id = "chart-" + next++;
                views.add(new ChartView(id, chart.title(), Units.title(chart.unit()),
                        new RawString(ChartSvg.render(chart, overlay, id)), legend(chart)));
            }
            return views;
        }

        List<MarkerRow> entries() {
            List<MarkerRow> rows = new ArrayList<>();
            List<Marker> entries = overlay.entries();
            for (int i = 0; i < entries.size(); i++) {
                rows.add(row(Integer.toString(i + 1), entries.get(i)));
            }
            return rows;
        }

        private MarkerRow row(String number, Marker marker) {
            boolean drawn = covered != null && covered.contains(marker.at());
            return new MarkerRow(number, Html.time(marker.at()), Html.iso(marker.at()), Html.text(marker.text()), drawn);
        }

        private static List<LegendRow> legend(Chart chart) {
            List<LegendRow> rows = new ArrayList<>();
            for (int i = 0; i < chart.series().size(); i++) {
                Series series = chart.series().get(i);
                String colour = ChartSvg.PALETTE.get(i % ChartSvg.PALETTE.size());
                rows.add(new LegendRow(series.name(), swatch(colour), Units.value(min(series), chart.unit()),
                        Units.value(max(series), chart.unit()), Units.value(last(series), chart.unit())));
            }
            return rows;
        }

        /** A line of the series' colour; the pages' policy allows no inline style, so it is SVG too. */
        private static RawString swatch(String colour) {
            return new RawString("<svg class=\"swatch\" viewBox=\"0 0 16 6\" aria-hidden=\"true\"><rect width=\"16\" "
                    + "height=\"6\" rx=\"2\" fill=\"" + colour + "\"/></svg>");
        }

        private static double min(Series series) {
            double min = Double.NaN;
            for (double v : series.values()) {
                min = Double.isNaN(min) || v < min ? v : min;
            }
            return min;
        }

        private static double max(Series series) {
            double max = Double.NaN;
            for (double v : series.values()) {
                max = Double.isNaN(max) || v > max ? v : max;
            }
            return max;
        }

        private static double last(Series series) {
            for (int i = series.size() - 1; i >= 0; i--) {
                if (!Double.isNaN(series.values()[i])) {
                    return series.values()[i];
                }
            }
            return Double.NaN;
        }
    }
}
