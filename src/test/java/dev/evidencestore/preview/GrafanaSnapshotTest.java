package dev.evidencestore.preview;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GrafanaSnapshotTest {

    private static final String DEMO_CAPTURE = """
            {"dashboard": "checkout-ops", "panels": [1, 2, 3, 4],
             "window": "2026-06-18T08:40:00Z/2026-06-18T10:20:00Z", "step": "60s"}""";

    private final GrafanaSnapshot grafana = new GrafanaSnapshot();

    @Test
    void drawsEveryPanelOfTheDemoWithItsDataFramesUnitsAndThresholds() throws Unreadable {
        DashboardPreview preview = demo(DEMO_CAPTURE);
        assertEquals("Checkout operations", preview.title());
        assertEquals("checkout-ops", preview.uid());
        assertEquals(List.of("Checkout API p95 latency", "Checkout worker saturation", "Webhook retry rate",
                "Webhook queue depth"), preview.charts().stream().map(Chart::title).toList());
        assertEquals(List.of("s", "percent", "reqps", "short"), preview.charts().stream().map(Chart::unit).toList());
        Chart latency = preview.charts().get(0);
        assertEquals(List.of("eu-west", "us-east"), latency.series().stream().map(Series::name).toList());
        assertEquals(101, latency.series().get(0).size());
        assertEquals(0.42, latency.series().get(0).values()[0]);
        assertEquals(List.of(new Threshold(2, "#c4162a")), latency.thresholds());
        assertEquals(List.of(), preview.charts().get(1).thresholds(), "no thresholds style, none drawn");
        assertEquals(List.of(new Threshold(40000, "#c4162a")), preview.charts().get(3).thresholds());
        assertEquals(List.of(), preview.undrawn());
    }

    @Test
    void theDashboardsAnnotationsAreMarkersOnEveryChart() throws Unreadable {
        DashboardPreview preview = demo(DEMO_CAPTURE);
        List<Marker> expected = List.of(
                Marker.at(Instant.parse("2026-06-18T08:52:00Z"),
                        "deploy-2026-06-18.1 completed (tellagen/checkout-api 9c4be1f)"),
                Marker.at(Instant.parse("2026-06-18T09:33:20Z"), "rollback to deploy-2026-06-17.3 started"),
                Marker.at(Instant.parse("2026-06-18T09:40:05Z"), "rollback to deploy-2026-06-17.3 completed"));
        preview.charts().forEach(chart -> assertEquals(expected, chart.annotations(), chart.title()));
    }

    @Test
    void readsTheFactsAReviewerChecksAndFindsTheDeclaredCaptureBorneOut() throws Unreadable {
        DashboardPreview preview = demo(DEMO_CAPTURE);
        assertEquals(List.of(
                new Fact("dashboardUid", "Dashboard UID", List.of("checkout-ops")),
                new Fact("dashboardTitle", "Dashboard", List.of("Checkout operations")),
                new Fact("panels", "Panels", List.of("Checkout API p95 latency", "Checkout worker saturation",
                        "Webhook retry rate", "Webhook queue depth")),
                new Fact("dataWindow", "Data covers", List.of("2026-06-18T08:40:00Z/2026-06-18T10:20:00Z")),
                new Fact("grafanaVersion", "Grafana version", List.of("11.1.4")),
                new Fact("snapshotCreated", "Snapshot created", List.of("2026-06-18T10:20:00Z"))),
                preview.facts().facts());
        assertEquals(List.of(), preview.facts().disagreements());
    }

    @Test
    void flagsAWindowTheDataDoesNotCoverAnotherDashboardAndAMissingPanel() throws Unreadable {
        DashboardPreview preview = demo("""
                {"dashboard": "payments", "panels": [1, 9],
                 "window": "2026-06-18T08:00:00Z/2026-06-18T10:20:00Z"}""");
        assertEquals(List.of(
                new Disagreement("dashboard", "payments", "the snapshot is of dashboard checkout-ops"),
                new Disagreement("window", "2026-06-18T08:00:00Z/2026-06-18T10:20:00Z",
                        "the data covers 2026-06-18T08:40:00Z/2026-06-18T10:20:00Z"),
                new Disagreement("panels", "[1,9]", "the dashboard has no panel 9")),
                preview.facts().disagreements());
    }

    @Test
    void drawsLegacyGraphPanelsListsTheRestAndReadsPanelsInsideCollapsedRows() throws Unreadable {
        Prefix prefix = Fixtures.whole(Fixtures.OWN + "grafana-legacy-graph.json");
        DashboardPreview preview = assertInstanceOf(DashboardPreview.class,
                grafana.read(Fixtures.subject("application/json", "grafana", "snapshot", null), prefix));
        assertEquals(List.of("CPU busy", "Disk read"), preview.charts().stream().map(Chart::title).toList());
        Chart cpu = preview.charts().get(0);
        assertEquals("percent", cpu.unit());
        assertEquals(List.of("cpu0", "cpu1"), cpu.series().stream().map(Series::name).toList());
        assertEquals(61, cpu.series().get(1).size());
        assertTrue(Double.isNaN(cpu.series().get(1).values()[10]), "a null is a gap");
        assertEquals(List.of(new Threshold(90, "#c4162a")), cpu.thresholds());
        assertEquals("bytes", preview.charts().get(1).unit());
        assertEquals(List.of(Marker.at(Instant.parse("2019-05-02T09:25:00Z"), "kernel upgrade on node-2")),
                cpu.annotations(), "an annotation whose end is its start is a moment");
        assertEquals(List.of(
                new DashboardPreview.Undrawn("Uptime", "singlestat", "a singlestat panel is not drawn as a chart"),
                new DashboardPreview.Undrawn("Runbook", "text", "a text panel is not drawn as a chart")),
                preview.undrawn());
    }

    @Test
    void readsTheWireFormOfDataFramesAndNamesValuesByTheirLabels() throws Unreadable {
        String snapshot = """
                {"dashboard": {"uid": "x", "panels": [{"id": 1, "type": "timeseries", "title": "Errors",
                  "snapshotData": [{"schema": {"fields": [{"name": "time", "type": "time"},
                      {"name": "errors", "type": "number", "labels": {"code": "500"}},
                      {"name": "errors", "type": "number", "labels": {"code": "503"}}]},
                    "data": {"values": [[1700000120000, 1700000000000, 1700000060000], [3, 1, 2], [null, 4, 5]]}}]}]}}""";
        byte[] bytes = snapshot.getBytes();
        DashboardPreview preview = (DashboardPreview) grafana.read(
                Fixtures.subject("application/json", "grafana", "snapshot", null), new Prefix(bytes, bytes.length));
        Chart chart = preview.charts().get(0);
        assertEquals(List.of("errors {code=\"500\"}", "errors {code=\"503\"}"),
                chart.series().stream().map(Series::name).toList());
        Series first = chart.series().get(0);
        assertEquals(List.of(1700000000000L, 1700000060000L, 1700000120000L),
                java.util.Arrays.stream(first.times()).boxed().toList(), "sorted by time");
        assertEquals(List.of(1.0, 2.0, 3.0), java.util.Arrays.stream(first.values()).boxed().toList());
        assertTrue(Double.isNaN(chart.series().get(1).values()[2]));
    }

    @Test
    void refusesWhatIsNotASnapshotAndATruncatedDocument() {
        byte[] notGrafana = "{\"dashboards\": []}".getBytes();
        Subject subject = Fixtures.subject("application/json", "grafana", "snapshot", null);
        assertThrows(Unreadable.class, () -> grafana.read(subject, new Prefix(notGrafana, notGrafana.length)));
        byte[] demo = Fixtures.bytes(Fixtures.DEMO + "grafana-checkout.json");
        byte[] cut = java.util.Arrays.copyOf(demo, 4096);
        Unreadable refused = assertThrows(Unreadable.class, () -> grafana.read(subject, new Prefix(cut, demo.length)));
        assertEquals("only the first 4096 bytes were read, and JSON is read whole", refused.getMessage());
    }

    @Test
    void takesGrafanaJsonOnly() {
        assertTrue(grafana.accepts(Fixtures.subject("application/json", "grafana", "snapshot", null)));
        assertTrue(grafana.accepts(Fixtures.subject("application/vnd.grafana+json; charset=utf-8", "Grafana", "", null)));
        assertFalse(grafana.accepts(Fixtures.subject("application/json", "kubernetes", "snapshot", null)));
        assertFalse(grafana.accepts(Fixtures.subject("text/plain", "grafana", "snapshot", null)));
    }

    private DashboardPreview demo(String capture) throws Unreadable {
        return assertInstanceOf(DashboardPreview.class, grafana.read(
                Fixtures.subject("application/json", "grafana", "snapshot", capture),
                Fixtures.whole(Fixtures.DEMO + "grafana-checkout.json")));
    }
}
