package dev.evidencestore.preview;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes state in three shapes: one object as {@code kubectl get -o json} prints it, a {@code List} of them,
 * and the demo collector's record (a Deployment, its pods, rollouts, autoscaler, events and numeric series sampled
 * over a window). Workloads and pods become tables, conditions and events lists, series charts grouped by unit.
 */
public final class KubernetesState implements Recogniser {

    private static final Set<String> WORKLOADS = Set.of("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet",
            "Job", "CronJob");
    private static final Pattern STEP = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public String name() {
        return "kubernetes/1";
    }

    @Override
    public boolean accepts(Subject subject) {
        return subject.fromSource("kubernetes") && subject.isJson();
    }

    @Override
    public Preview read(Subject subject, Prefix prefix) throws Unreadable {
        JsonNode root = JsonBytes.read(prefix);
        State state = new State(JsonBytes.text(root, "namespace"));
        if (root.path("items").isArray()) {
            root.get("items").forEach(state::object);
        } else if (root.has("kind") && root.has("metadata")) {
            state.object(root);
        } else if (root.has("deployment") || root.has("pods")) {
            state.collected(root);
        } else {
            throw new Unreadable("Kubernetes state is an object, a List or a collector's record with pods");
        }
        return new WorkloadPreview(JsonBytes.text(root, "cluster"), state.workloads, state.pods, state.conditions,
                state.events, state.charts, state.facts(subject, JsonBytes.text(root, "cluster")));
    }

    /** What has been read so far. */
    private static final class State {
        private final String namespace;
        private final List<WorkloadPreview.Row> workloads = new ArrayList<>();
        private final List<WorkloadPreview.Row> pods = new ArrayList<>();
        private final List<WorkloadPreview.Condition> conditions = new ArrayList<>();
        private final List<WorkloadPreview.Event> events = new ArrayList<>();
        private final List<Chart> charts = new ArrayList<>();
        private final Set<String> namespaces = new LinkedHashSet<>();
        private final Set<String> names = new LinkedHashSet<>();
        private final Set<String> resourceVersions = new LinkedHashSet<>();
        private final Set<String> images = new LinkedHashSet<>();
        private Window window;

        State(String namespace) {
            this.namespace = namespace;
            if (namespace != null) {
                namespaces.add(namespace);
            }
        }

        /** An object as the API serves it: kind, metadata, spec, status. */
        void object(JsonNode object) {
            String kind = Optional.ofNullable(JsonBytes.text(object, "kind")).orElse("Object");
            JsonNode metadata = object.path("metadata");
            String ns = Optional.ofNullable(JsonBytes.text(metadata, "namespace")).orElse(namespace);
            String name = JsonBytes.text(metadata, "name");
            noteIdentity(kind, ns, name, JsonBytes.text(metadata, "resourceVersion"));
            if (kind.equals("Event")) {
                JsonNode involved = object.path("involvedObject");
                events.add(new WorkloadPreview.Event(first(object, "lastTimestamp", "eventTime", "firstTimestamp"),
                        JsonBytes.text(involved, "kind") + "/" + JsonBytes.text(involved, "name"),
                        JsonBytes.text(object, "type"), JsonBytes.text(object, "reason"),
                        JsonBytes.text(object, "message")));
                return;
            }
            JsonNode spec = object.path("spec");
            JsonNode status = object.path("status");
            if (kind.equals("Pod")) {
                pods.add(pod(ns, name, spec, status));
            } else {
                workloads.add(new WorkloadPreview.Row(kind, ns, name, replicas(spec, status), null,
                        conditionSummary(status), images(spec.path("template").path("spec").path("containers")),
                        JsonBytes.text(metadata, "creationTimestamp")));
            }
            conditions(kind + "/" + name, status.path("conditions"));
        }

        private WorkloadPreview.Row pod(String ns, String name, JsonNode spec, JsonNode status) {
            int ready = 0;
            int restarts = 0;
            JsonNode statuses = status.path("containerStatuses");
            String waiting = null;
            for (JsonNode container : statuses) {
                ready += container.path("ready").asBoolean() ? 1 : 0;
                restarts += container.path("restartCount").asInt();
                String reason = JsonBytes.text(container.path("state").path("waiting"), "reason");
                waiting = waiting == null ? reason : waiting;
            }
            int containers = Math.max(statuses.size(), spec.path("containers").size());
            return new WorkloadPreview.Row("Pod", ns, name, ready + "/" + containers, Integer.toString(restarts),
                    waiting != null ? waiting : JsonBytes.text(status, "phase"), images(spec.path("containers")),
                    JsonBytes.text(status, "startTime"));
        }

        /** The collector's record, as in the demo. */
        void collected(JsonNode root) {
            JsonNode deployment = root.path("deployment");
            if (deployment.isObject()) {
                String name = JsonBytes.text(deployment, "name");
                String kind = Optional.ofNullable(JsonBytes.text(deployment, "kind")).orElse("Deployment");
                noteIdentity(kind, namespace, name, JsonBytes.text(deployment, "resourceVersion"));
                JsonNode status = deployment.path("status");
                String image = JsonBytes.text(deployment.path("container"), "image");
                if (image != null) {
                    images.add(image);
                }
                workloads.add(new WorkloadPreview.Row(kind, namespace, name, ratio(status, "readyReplicas", "replicas"),
                        null, conditionSummary(status), image, null));
                conditions(kind + "/" + name, status.path("conditions"));
            }
            JsonNode autoscaler = root.path("horizontalPodAutoscaler");
            if (autoscaler.isObject()) {
                String name = JsonBytes.text(autoscaler, "name");
                noteIdentity("HorizontalPodAutoscaler", namespace, name, JsonBytes.text(autoscaler, "resourceVersion"));
                JsonNode status = autoscaler.path("status");
                workloads.add(new WorkloadPreview.Row("HorizontalPodAutoscaler", namespace, name,
                        ratio(status, "currentReplicas", "desiredReplicas"), null, conditionSummary(status), null,
                        JsonBytes.text(status, "lastScaleTime")));
                conditions("HorizontalPodAutoscaler/" + name, status.path("conditions"));
            }
            for (JsonNode pod : root.path("pods")) {
                String name = JsonBytes.text(pod, "name");
                names.add("Pod/" + name);
                JsonNode ready = pod.path("ready");
                pods.add(new WorkloadPreview.Row("Pod", namespace, name,
                        ready.isBoolean() ? (ready.asBoolean() ? "1/1" : "0/1") : JsonBytes.text(pod, "ready"),
                        JsonBytes.text(pod, "restartCount"), JsonBytes.text(pod, "phase"), JsonBytes.text(pod, "image"),
                        JsonBytes.text(pod, "startedAt")));
            }
            for (JsonNode rollout : root.path("rollouts")) {
                String message = "revision " + JsonBytes.text(rollout, "revision")
                        + Optional.ofNullable(JsonBytes.text(rollout, "deployment")).map(d -> " (" + d + ")").orElse("")
                        + Optional.ofNullable(JsonBytes.text(rollout, "image")).map(i -> ", " + i).orElse("")
                        + Optional.ofNullable(JsonBytes.text(rollout, "cause")).map(c -> ", by " + c).orElse("")
                        + Optional.ofNullable(JsonBytes.text(rollout, "completed")).map(c -> "; completed " + c)
                        .orElse("");
                events.add(new WorkloadPreview.Event(JsonBytes.text(rollout, "started"),
                        "ReplicaSet/" + JsonBytes.text(rollout, "replicaSet"), "Normal", "RolloutStarted", message));
            }
            eventList(root.path("scalingEvents"));
            eventList(root.path("nodeCapacityEvents").path("items"));
            events.sort((a, b) -> String.valueOf(a.time()).compareTo(String.valueOf(b.time())));
            series(root.path("window"), root.path("series"));
        }

        private void eventList(JsonNode list) {
            for (JsonNode event : list) {
                events.add(new WorkloadPreview.Event(first(event, "time", "lastTimestamp", "eventTime"),
                        JsonBytes.text(event, "object"), JsonBytes.text(event, "type"),
                        JsonBytes.text(event, "reason"), JsonBytes.text(event, "message")));
            }
        }

        /** Series sampled over the window, one value a step; series of one unit share a chart. */
        private void series(JsonNode windowNode, JsonNode series) {
            Instant start = JsonBytes.instant(windowNode.get("from"));
            long step = step(JsonBytes.text(windowNode, "step"));
            if (start == null || step <= 0 || !series.isObject()) {
                return;
            }
            Map<String, List<Series>> byUnit = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : series.properties()) {
                JsonNode values = entry.getValue().path("values");
                if (!values.isArray() || values.isEmpty()) {
                    continue;
                }
                long[] times = new long[values.size()];
                double[] numbers = new double[values.size()];
                for (int i = 0; i < values.size(); i++) {
                    times[i] = start.toEpochMilli() + i * step;
                    numbers[i] = JsonBytes.number(values.get(i));
                }
                Series line = new Series(entry.getKey(), times, numbers);
                line.window().ifPresent(w -> window = w.union(window));
                String unit = Optional.ofNullable(JsonBytes.text(entry.getValue(), "unit")).orElse("count");
                byUnit.computeIfAbsent(unit, u -> new ArrayList<>()).add(line);
            }
            byUnit.forEach((unit, lines) -> charts.add(new Chart(title(lines), unit.equals("count") ? "short" : unit,
                    lines, List.of(), List.of())));
        }

        private static String title(List<Series> lines) {
            return String.join(", ", lines.stream().map(Series::name).toList());
        }

        private static long step(String text) {
            Matcher step = text == null ? null : STEP.matcher(text.strip());
            if (step == null || !step.matches()) {
                return 0;
            }
            long amount = Long.parseLong(step.group(1));
            return switch (step.group(2)) {
                case "ms" -> amount;
                case "s" -> Duration.ofSeconds(amount).toMillis();
                case "m" -> Duration.ofMinutes(amount).toMillis();
                default -> Duration.ofHours(amount).toMillis();
            };
        }

        private void conditions(String object, JsonNode list) {
            for (JsonNode condition : list) {
                conditions.add(new WorkloadPreview.Condition(object, JsonBytes.text(condition, "type"),
                        JsonBytes.text(condition, "status"), JsonBytes.text(condition, "reason"),
                        JsonBytes.text(condition, "message"),
                        first(condition, "lastTransitionTime", "lastUpdateTime", "lastProbeTime")));
            }
        }

        private void noteIdentity(String kind, String ns, String name, String resourceVersion) {
            if (ns != null) {
                namespaces.add(ns);
            }
            if (name != null) {
                names.add(kind + "/" + name);
            }
            if (resourceVersion != null) {
                resourceVersions.add(resourceVersion);
            }
        }

        private String images(JsonNode containers) {
            List<String> list = new ArrayList<>();
            for (JsonNode container : containers) {
                String image = JsonBytes.text(container, "image");
                if (image != null) {
                    list.add(image);
                    images.add(image);
                }
            }
            return list.isEmpty() ? null : String.join(", ", list);
        }

        private static String replicas(JsonNode spec, JsonNode status) {
            if (!status.has("readyReplicas") && !spec.has("replicas") && !status.has("replicas")) {
                return null;
            }
            int wanted = spec.has("replicas") ? spec.path("replicas").asInt() : status.path("replicas").asInt();
            return status.path("readyReplicas").asInt() + "/" + wanted;
        }

        private static String ratio(JsonNode status, String part, String whole) {
            return status.has(part) || status.has(whole)
                    ? status.path(part).asInt() + "/" + status.path(whole).asInt() : null;
        }

        /** The conditions that hold, as {@code kubectl describe} lists them; a false one is marked so. */
        private static String conditionSummary(JsonNode status) {
            List<String> parts = new ArrayList<>();
            for (JsonNode condition : status.path("conditions")) {
                String type = JsonBytes.text(condition, "type");
                String value = JsonBytes.text(condition, "status");
                if (type != null) {
                    parts.add("True".equals(value) ? type : type + "=" + value);
                }
            }
            if (parts.isEmpty()) {
                return JsonBytes.text(status, "phase");
            }
            return String.join(", ", parts);
        }

        private static String first(JsonNode node, String... fields) {
            for (String field : fields) {
                String value = JsonBytes.text(node, field);
                if (value != null) {
                    return value;
                }
            }
            return null;
        }

        Facts facts(Subject subject, String cluster) {
            Facts.Builder facts = Facts.builder()
                    .fact("cluster", "Cluster", cluster)
                    .fact("namespaces", "Namespaces", namespaces)
                    .fact("objects", "Objects", names.stream().filter(n -> !n.startsWith("Pod/")).toList())
                    .fact("pods", "Pods", pods.isEmpty() ? null : Integer.toString(pods.size()))
                    .fact("resourceVersions", "Resource versions", resourceVersions)
                    .fact("images", "Images", images)
                    .fact("dataWindow", "Series cover", window == null ? null : window.toString());
            disagree(facts, subject, "cluster", cluster == null ? Set.of() : Set.of(cluster), "the state is of cluster ");
            disagree(facts, subject, "namespace", namespaces, "the state covers namespace ");
            disagree(facts, subject, "resourceVersion", resourceVersions, "the objects are at resourceVersion ");
            String deployment = subject.declared("deployment");
            if (deployment != null && names.stream().noneMatch(n -> n.endsWith("/" + deployment))) {
                facts.disagree("deployment", deployment, "the state holds no object named " + deployment);
            }
            return facts.build();
        }

        private static void disagree(Facts.Builder facts, Subject subject, String capture, Set<String> found,
                                     String prefix) {
            String declared = subject.declared(capture);
            if (declared != null && !found.isEmpty() && !found.contains(declared)) {
                facts.disagree(capture, declared, prefix + String.join(", ", found));
            }
        }
    }
}
