package dev.evidencestore.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Grafana snapshot made from a dashboard and its queries' answers: {@code /api/ds/query} answers data frames as
 * {@code schema} and column-wise {@code data.values}; a snapshot holds them as each panel's {@code snapshotData},
 * fields carrying their own {@code values}, as the demo's grafana-checkout.json and Grafana's own snapshots do.
 */
final class GrafanaSnapshot {

    private final SourceApi grafana;
    private final GrafanaCapture.Window window;
    private final int maxDataPoints;

    GrafanaSnapshot(SourceApi grafana, GrafanaCapture.Window window, int maxDataPoints) {
        this.grafana = grafana;
        this.window = window;
        this.maxDataPoints = maxDataPoints;
    }

    /** The sample step: the window over the points asked for, at least a second. */
    long stepMillis() {
        long span = window.to().toEpochMilli() - window.from().toEpochMilli();
        return Math.max(1000, span / Math.max(1, maxDataPoints - 1) / 1000 * 1000);
    }

    /** The panels to capture, rows unfolded: the ones asked for, else every panel with queries. */
    List<ObjectNode> panels(JsonNode dashboard, List<Integer> wanted) {
        List<ObjectNode> all = new ArrayList<>();
        collect(dashboard.path("panels"), all);
        List<ObjectNode> chosen = all.stream().filter(panel -> wanted == null ? panel.path("targets").size() > 0
                : wanted.contains(panel.path("id").asInt())).toList();
        if (wanted != null && chosen.size() < wanted.size()) {
            throw CommandFailure.usage("the dashboard has no panel of some of the IDs " + wanted);
        }
        return chosen;
    }

    private static void collect(JsonNode panels, List<ObjectNode> into) {
        for (JsonNode panel : panels) {
            if (panel.isObject()) {
                into.add((ObjectNode) panel);
                collect(panel.path("panels"), into);
            }
        }
    }

    /** What was asked of each data source, for the capture: panel, refId, and the query as written. */
    ArrayNode queries(List<ObjectNode> panels) {
        ArrayNode queries = Json.MAPPER.createArrayNode();
        for (ObjectNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                ObjectNode query = queries.addObject().put("panel", panel.path("id").asInt())
                        .put("refId", target.path("refId").asText());
                for (String text : new String[] {"expr", "query", "rawSql", "expression"}) {
                    if (target.hasNonNull(text)) {
                        query.put(text, target.get(text).asText());
                    }
                }
            }
        }
        return queries;
    }

    void write(JsonGenerator json, JsonNode fetched, ObjectNode dashboard, List<ObjectNode> chosen)
            throws IOException {
        json.writeStartObject();
        json.writeObjectFieldStart("meta");
        json.writeStringField("type", "snapshot");
        json.writeStringField("created", Instant.now().toString());
        json.writeStringField("createdBy", Version.COLLECTOR);
        if (fetched.path("meta").hasNonNull("grafanaVersion")) {
            json.writeStringField("grafanaVersion", fetched.path("meta").path("grafanaVersion").asText());
        }
        json.writeEndObject();
        json.writeObjectFieldStart("dashboard");
        for (Map.Entry<String, JsonNode> member : dashboard.properties()) {
            if (!member.getKey().equals("panels") && !member.getKey().equals("time")) {
                json.writeFieldName(member.getKey());
                Json.MAPPER.writeTree(json, member.getValue());
            }
        }
        json.writeObjectFieldStart("time");
        json.writeStringField("from", window.from().toString());
        json.writeStringField("to", window.to().toString());
        json.writeEndObject();
        json.writeArrayFieldStart("panels");
        for (ObjectNode panel : chosen) {
            ObjectNode captured = panel.deepCopy();
            captured.remove("panels");
            captured.set("snapshotData", snapshotData(panel));
            Json.MAPPER.writeTree(json, captured);
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeEndObject();
    }

    /** One panel's queries run for the window; their frames in the snapshot's shape. */
    private ArrayNode snapshotData(ObjectNode panel) {
        ArrayNode frames = Json.MAPPER.createArrayNode();
        if (panel.path("targets").isEmpty()) {
            return frames;
        }
        ObjectNode request = Json.object().put("from", Long.toString(window.from().toEpochMilli()))
                .put("to", Long.toString(window.to().toEpochMilli()));
        ArrayNode queries = request.putArray("queries");
        for (JsonNode target : panel.path("targets")) {
            ObjectNode query = ((ObjectNode) target).deepCopy();
            if (!query.has("datasource")) {
                query.set("datasource", panel.path("datasource"));
            }
            query.put("intervalMs", stepMillis()).put("maxDataPoints", maxDataPoints);
            queries.add(query);
        }
        JsonNode answer = grafana.postJson("api/ds/query", request);
        for (Map.Entry<String, JsonNode> result : answer.path("results").properties()) {
            for (JsonNode frame : result.getValue().path("frames")) {
                frames.add(frame(result.getKey(), frame));
            }
        }
        return frames;
    }

    /** {@code {schema: {name, refId, meta, fields}, data: {values}}} as {@code {name, refId, meta, fields[values]}}. */
    static ObjectNode frame(String refId, JsonNode frame) {
        JsonNode schema = frame.path("schema");
        ObjectNode converted = Json.object();
        if (schema.hasNonNull("name")) {
            converted.put("name", schema.get("name").asText());
        }
        converted.put("refId", schema.path("refId").asText(refId));
        if (schema.has("meta")) {
            converted.set("meta", schema.get("meta"));
        }
        ArrayNode fields = converted.putArray("fields");
        JsonNode columns = frame.path("data").path("values");
        for (int i = 0; i < schema.path("fields").size(); i++) {
            ObjectNode field = ((ObjectNode) schema.path("fields").get(i)).deepCopy();
            field.set("values", columns.has(i) ? columns.get(i) : Json.MAPPER.createArrayNode());
            fields.add(field);
        }
        return converted;
    }
}
