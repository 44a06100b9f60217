package dev.evidencestore.preview;

import java.util.List;

/**
 * Kubernetes state: the workloads and pods as tables, their conditions and events, and any numeric series the
 * collector recorded, as charts.
 */
public record WorkloadPreview(String cluster, List<Row> workloads, List<Row> pods, List<Condition> conditions,
                              List<Event> events, List<Chart> charts, Facts facts) implements Preview {

    public WorkloadPreview {
        workloads = List.copyOf(workloads);
        pods = List.copyOf(pods);
        conditions = List.copyOf(conditions);
        events = List.copyOf(events);
        charts = List.copyOf(charts);
    }

    /** One workload or pod; {@code time} is when it started or was created, as the object says. */
    public record Row(String kind, String namespace, String name, String ready, String restarts, String status,
                      String image, String time) {

        public String qualifiedName() {
            return namespace == null || namespace.isBlank() ? name : namespace + "/" + name;
        }
    }

    public record Condition(String object, String type, String status, String reason, String message, String time) {
    }

    public record Event(String time, String object, String type, String reason, String message) {
    }
}
