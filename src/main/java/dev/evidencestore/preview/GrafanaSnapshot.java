package dev.evidencestore.preview;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Grafana dashboard snapshots, in both shapes Grafana has written: panels whose {@code snapshotData} holds data
 * frames (fields with a time field and number fields, or the {@code schema}/{@code data} form) and legacy
 * {@code graph} panels whose {@code snapshotData} holds {@code {target, datapoints: [[value, ms], ...]}}. The
 * dashboard's annotations become markers on every chart.
 */
public final class GrafanaSnapshot implements Recogniser {

    private static final Set<String> DRAWN = Set.of("timeseries", "graph");

    @Override
    public String name() {
        return "grafana/1";
    }

    @Override
    public boolean accepts(Subject subject) {
        return subject.fromSource("grafana") && subject.isJson();
    }

    @Override
    public Preview read(Subject subject, Prefix prefix) throws Unreadable {
        JsonNode root = JsonBytes.read(prefix);
        JsonNode dashboard = root.has("dashboard") ? root.get("dashboard") : root;
        if (!dashboard.path("panels").isArray()) {
            throw new Unreadable("a Grafana snapshot has a dashboard with panels");
        }
        List<Marker> annotations = annotations(dashboard);
        List<Chart> charts = new ArrayList<>();
        List<DashboardPreview.Undrawn> undrawn = new ArrayList<>();
        List<String> panelIds = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        for (JsonNode panel : panels(dashboard.get("panels"))) {
            String title = Optional.ofNullable(JsonBytes.text(panel, "title")).orElse("untitled panel");
            String type = Optional.ofNullable(JsonBytes.text(panel, "type")).orElse("unknown");
            Optional.ofNullable(JsonBytes.text(panel, "id")).ifPresent(panelIds::add);
            titles.add(title);
            List<Series> series = DRAWN.contains(type) ? series(panel.path("snapshotData")) : List.of();
            if (!DRAWN.contains(type)) {
                undrawn.add(new DashboardPreview.Undrawn(title, type, "a " + type + " panel is not drawn as a chart"));
            } else if (series.isEmpty()) {
                undrawn.add(new DashboardPreview.Undrawn(title, type, "the snapshot holds no data for it"));
            } else {
                charts.add(new Chart(title, unit(panel), series, thresholds(panel), annotations));
            }
        }
        String uid = JsonBytes.text(dashboard, "uid");
        return new DashboardPreview(JsonBytes.text(dashboard, "title"), uid, charts, undrawn,
                facts(subject, root, uid, panelIds, titles, charts));
    }

    /** Panels in the order of the dashboard, with those inside collapsed rows; rows themselves hold no data. */
    private static List<JsonNode> panels(JsonNode list) {
        List<JsonNode> all = new ArrayList<>();
        for (JsonNode panel : list) {
            if ("row".equals(JsonBytes.text(panel, "type"))) {
                all.addAll(panels(panel.path("panels")));
            } else {
                all.add(panel);
            }
        }
        return all;
    }

    private static List<Series> series(JsonNode snapshotData) {
        List<Series> series = new ArrayList<>();
        for (JsonNode frame : snapshotData) {
            if (frame.has("datapoints")) {
                series.add(legacy(frame));
            } else {
                series.addAll(frame(frame));
            }
        }
        return series.stream().filter(s -> s.size() > 0).toList();
    }

    private static Series legacy(JsonNode frame) {
        JsonNode points = frame.path("datapoints");
        long[] times = new long[points.size()];
        double[] values = new double[points.size()];
        int n = 0;
        for (JsonNode point : points) {
            if (point.isArray() && point.size() >= 2 && point.get(1).isNumber()) {
                values[n] = JsonBytes.number(point.get(0));
                times[n++] = point.get(1).asLong();
            }
        }
        String name = Optional.ofNullable(JsonBytes.text(frame, "target")).orElse("series");
        return sorted(name, Arrays.copyOf(times, n), Arrays.copyOf(values, n));
    }

    /** A data frame: fields with values, or the wire form's field schema beside columns of values. */
    private static List<Series> frame(JsonNode frame) {
        JsonNode fields = frame.has("fields") ? frame.get("fields") : frame.path("schema").path("fields");
        JsonNode columns = frame.path("data").path("values");
        int timeField = -1;
        List<Integer> numberFields = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            JsonNode field = fields.get(i);
            String type = JsonBytes.text(field, "type");
            if (timeField < 0 && ("time".equals(type) || "Time".equalsIgnoreCase(JsonBytes.text(field, "name")))) {
                timeField = i;
            } else if ("number".equals(type)) {
                numberFields.add(i);
            }
        }
        if (timeField < 0) {
            return List.of();
        }
        JsonNode times = values(fields.get(timeField), columns, timeField);
        String frameName = JsonBytes.text(frame, "name");
        if (frameName == null) {
            frameName = JsonBytes.text(frame.path("schema"), "name");
        }
        List<Series> series = new ArrayList<>();
        for (int index : numberFields) {
            JsonNode field = fields.get(index);
            series.add(column(displayName(field, frameName, numberFields.size()), times,
                    values(field, columns, index)));
        }
        return series;
    }

    private static JsonNode values(JsonNode field, JsonNode columns, int index) {
        return field.has("values") ? field.get("values") : columns.path(index);
    }

    private static Series column(String name, JsonNode times, JsonNode values) {
        int n = Math.min(times.size(), values.size());
        long[] at = new long[n];
        double[] value = new double[n];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            var time = JsonBytes.instant(times.get(i));
            if (time != null) {
                at[kept] = time.toEpochMilli();
                value[kept++] = JsonBytes.number(values.get(i));
            }
        }
        return sorted(name, Arrays.copyOf(at, kept), Arrays.copyOf(value, kept));
    }

    /** Grafana's display name: the one configured, else the frame's name for its only value, else name and labels. */
    private static String displayName(JsonNode field, String frameName, int valueFields) {
        JsonNode config = field.path("config");
        for (String configured : new String[] {"displayName", "displayNameFromDS"}) {
            String name = JsonBytes.text(config, configured);
            if (name != null && !name.isBlank()) {
                return name;
            }
        }
        if (frameName != null && !frameName.isBlank() && valueFields == 1) {
            return frameName;
        }
        String name = Optional.ofNullable(JsonBytes.text(field, "name")).orElse("Value");
        JsonNode labels = field.path("labels");
        if (labels.isObject() && !labels.isEmpty()) {
            List<String> pairs = new ArrayList<>();
            for (Map.Entry<String, JsonNode> label : labels.properties()) {
                pairs.add(label.getKey() + "=\"" + label.getValue().asText() + "\"");
            }
            return name + " {" + String.join(", ", pairs) + "}";
        }
        return name;
    }

    /** Points in time order: Grafana writes them so, but nothing requires it, and a line must not double back. */
    private static Series sorted(String name, long[] times, double[] values) {
        boolean ordered = true;
        for (int i = 1; i < times.length && ordered; i++) {
            ordered = times[i - 1] <= times[i];
        }
        if (ordered) {
            return new Series(name, times, values);
        }
        Integer[] order = new Integer[times.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(times[a], times[b]));
        long[] t = new long[times.length];
        double[] v = new double[times.length];
        for (int i = 0; i < order.length; i++) {
            t[i] = times[order[i]];
            v[i] = values[order[i]];
        }
        return new Series(name, t, v);
    }

    private static String unit(JsonNode panel) {
        String unit = JsonBytes.text(panel.path("fieldConfig").path("defaults"), "unit");
        if (unit == null && panel.path("yaxes").isArray() && !panel.path("yaxes").isEmpty()) {
            unit = JsonBytes.text(panel.path("yaxes").get(0), "format");
        }
        return unit == null ? "short" : unit;
    }

    private static List<Threshold> thresholds(JsonNode panel) {
        List<Threshold> thresholds = new ArrayList<>();
        JsonNode defaults = panel.path("fieldConfig").path("defaults");
        String style = JsonBytes.text(defaults.path("custom").path("thresholdsStyle"), "mode");
        boolean absolute = !"percentage".equals(JsonBytes.text(defaults.path("thresholds"), "mode"));
        if (style != null && !"off".equals(style) && absolute) {
            for (JsonNode step : defaults.path("thresholds").path("steps")) {
                if (step.path("value").isNumber()) {
                    thresholds.add(new Threshold(step.get("value").asDouble(),
                            Colours.of(JsonBytes.text(step, "color"))));
                }
            }
        }
        for (JsonNode legacy : panel.path("thresholds")) {
            if (legacy.path("value").isNumber()) {
                String colour = "custom".equals(JsonBytes.text(legacy, "colorMode"))
                        ? JsonBytes.text(legacy, "lineColor") : JsonBytes.text(legacy, "colorMode");
                thresholds.add(new Threshold(legacy.get("value").asDouble(), Colours.of(colour)));
            }
        }
        return thresholds;
    }

    private static List<Marker> annotations(JsonNode dashboard) {
        List<Marker> markers = new ArrayList<>();
        for (JsonNode list : dashboard.path("annotations").path("list")) {
            for (JsonNode annotation : list.path("snapshotData")) {
                var at = JsonBytes.instant(annotation.get("time"));
                if (at != null) {
                    var end = JsonBytes.instant(annotation.get("timeEnd"));
                    String text = Optional.ofNullable(JsonBytes.text(annotation, "text"))
                            .or(() -> Optional.ofNullable(JsonBytes.text(annotation, "title")))
                            .orElse(JsonBytes.text(list, "name"));
                    markers.add(new Marker(at, end != null && end.isAfter(at) ? end : null, text));
                }
            }
        }
        markers.sort(Comparator.comparing(Marker::at));
        return markers;
    }

    private static Facts facts(Subject subject, JsonNode root, String uid, List<String> panelIds,
                               List<String> titles, List<Chart> charts) {
        Optional<Window> covered = charts.stream().map(Chart::window).flatMap(Optional::stream)
                .reduce(Window::union);
        Facts.Builder facts = Facts.builder()
                .fact("dashboardUid", "Dashboard UID", uid)
                .fact("dashboardTitle", "Dashboard", JsonBytes.text(root.path("dashboard"), "title"))
                .fact("panels", "Panels", titles)
                .fact("dataWindow", "Data covers", covered.map(Window::toString).orElse(null))
                .fact("grafanaVersion", "Grafana version", JsonBytes.text(root.path("meta"), "grafanaVersion"))
                .fact("snapshotCreated", "Snapshot created", JsonBytes.text(root.path("meta"), "created"));
        String declaredUid = subject.declared("dashboard");
        if (declaredUid != null && uid != null && !declaredUid.equals(uid)) {
            facts.disagree("dashboard", declaredUid, "the snapshot is of dashboard " + uid);
        }
        Optional<Window> declared = Window.parse(subject.declared("window"));
        if (declared.isPresent() && !coversWithSlack(covered, declared.get(), charts)) {
            facts.disagree("window", declared.get().toString(), covered.map(w -> "the data covers " + w)
                    .orElse("the snapshot holds no data"));
        }
        JsonNode declaredPanels = subject.capture() == null ? null : subject.capture().get("panels");
        if (declaredPanels != null && declaredPanels.isArray()) {
            Set<String> missing = new TreeSet<>();
            declaredPanels.forEach(id -> {
                if (!panelIds.contains(id.asText())) {
                    missing.add(id.asText());
                }
            });
            if (!missing.isEmpty()) {
                facts.disagree("panels", declaredPanels.toString(),
                        "the dashboard has no panel " + String.join(", ", missing));
            }
        }
        return facts.build();
    }

    /** Data sampled every step covers a window whose ends lie within one step of its first and last points. */
    private static boolean coversWithSlack(Optional<Window> covered, Window declared, List<Chart> charts) {
        if (covered.isEmpty()) {
            return false;
        }
        Duration slack = Duration.ofMillis(charts.stream().flatMap(c -> c.series().stream())
                .mapToLong(GrafanaSnapshot::step).max().orElse(0));
        Window widened = new Window(covered.get().from().minus(slack), covered.get().to().plus(slack));
        return widened.covers(declared);
    }

    /** The sampling step: the shortest gap between two points, at most an hour. */
    private static long step(Series series) {
        long step = 3_600_000;
        for (int i = 1; i < series.size(); i++) {
            long gap = series.times()[i] - series.times()[i - 1];
            if (gap > 0) {
                step = Math.min(step, gap);
            }
        }
        return series.size() < 2 ? 0 : step;
    }
}
