package dev.evidencestore.preview;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class KubernetesStateTest {

    private final KubernetesState kubernetes = new KubernetesState();

    @Test
    void theDemoRecordShowsTheWorkersTheirPodsEventsAndSeries() throws Unreadable {
        WorkloadPreview state = demo("{\"cluster\": \"prod-eu-west-1\", \"namespace\": \"checkout-api\", "
                + "\"deployment\": \"checkout-workers\", \"resourceVersion\": \"88412093\"}");
        assertEquals("prod-eu-west-1", state.cluster());
        assertEquals(new WorkloadPreview.Row("Deployment", "checkout-api", "checkout-workers", "24/24", null,
                "Available, Progressing", "registry.tellagen.example/checkout-api:2026.06.17.3", null),
                state.workloads().get(0));
        assertEquals("HorizontalPodAutoscaler", state.workloads().get(1).kind());
        assertEquals(24, state.pods().size());
        assertEquals(new WorkloadPreview.Row("Pod", "checkout-api", "checkout-workers-6d9f7c5b8d-sw7ss", "1/1", "0",
                "Running", null, "2026-06-18T09:33:33Z"), state.pods().get(0));
        assertEquals(5, state.conditions().size(), "two of the Deployment, three of the autoscaler");
        assertEquals(List.of("2026-06-17T15:04:12Z", "2026-06-18T08:45:10Z", "2026-06-18T09:01:47Z",
                "2026-06-18T09:05:52Z", "2026-06-18T09:33:20Z"),
                state.events().stream().map(WorkloadPreview.Event::time).toList());
        assertEquals(List.of("desiredReplicas, readyReplicas, unreadyPods, containerRestarts", "cpuSaturation",
                "leaseHeldP95Seconds", "leaseSlotsInUse", "leasesExpired"),
                state.charts().stream().map(Chart::title).toList());
        Chart slots = state.charts().get(3);
        assertEquals("ratio of slots (max_concurrency 8 per pod)", slots.unit());
        assertEquals(101, slots.series().get(0).size());
        assertEquals(new Window(java.time.Instant.parse("2026-06-18T08:40:00Z"),
                java.time.Instant.parse("2026-06-18T10:20:00Z")), slots.window().orElseThrow());
    }

    @Test
    void readsNamesNamespacesAndResourceVersionsAndFindsTheCaptureBorneOut() throws Unreadable {
        WorkloadPreview state = demo("{\"cluster\": \"prod-eu-west-1\", \"namespace\": \"checkout-api\", "
                + "\"deployment\": \"checkout-workers\", \"resourceVersion\": \"88412093\"}");
        assertEquals(List.of("cluster", "namespaces", "objects", "pods", "resourceVersions", "images", "dataWindow"),
                state.facts().facts().stream().map(Fact::name).toList());
        assertEquals(List.of("Deployment/checkout-workers", "HorizontalPodAutoscaler/checkout-workers"),
                state.facts().facts().get(2).values());
        assertEquals(List.of("88412093"), state.facts().facts().get(4).values());
        assertEquals(List.of(), state.facts().disagreements());
    }

    @Test
    void flagsADeclaredNamespaceDeploymentAndResourceVersionTheStateDoesNotHold() throws Unreadable {
        WorkloadPreview state = demo("{\"namespace\": \"payments\", \"deployment\": \"payments-api\", "
                + "\"resourceVersion\": \"1\"}");
        assertEquals(List.of(
                new Disagreement("namespace", "payments", "the state covers namespace checkout-api"),
                new Disagreement("resourceVersion", "1", "the objects are at resourceVersion 88412093"),
                new Disagreement("deployment", "payments-api", "the state holds no object named payments-api")),
                state.facts().disagreements());
    }

    @Test
    void aKubectlListHasItsDeploymentPodsConditionsAndEvents() throws Unreadable {
        WorkloadPreview state = (WorkloadPreview) kubernetes.read(
                Fixtures.subject("application/json", "kubernetes", "snapshot", "{\"namespace\": \"shop\"}"),
                Fixtures.whole(Fixtures.OWN + "kubernetes-list.json"));
        assertEquals(List.of(new WorkloadPreview.Row("Deployment", "shop", "api", "1/2", null,
                "Available, Progressing=False", "registry.example/shop/api:1.8.2", "2026-01-10T08:00:00Z")),
                state.workloads());
        assertEquals(List.of(
                new WorkloadPreview.Row("Pod", "shop", "api-7d9c8b6f5-abcde", "1/1", "0", "Running",
                        "registry.example/shop/api:1.8.2", "2026-03-04T11:49:02Z"),
                new WorkloadPreview.Row("Pod", "shop", "api-7d9c8b6f5-fghij", "0/1", "5", "CrashLoopBackOff",
                        "registry.example/shop/api:1.8.2", "2026-03-04T11:49:03Z")), state.pods());
        assertEquals(List.of("Deployment/api Available", "Deployment/api Progressing", "Pod/api-7d9c8b6f5-abcde Ready",
                "Pod/api-7d9c8b6f5-fghij Ready"), state.conditions().stream()
                .map(c -> c.object() + " " + c.type()).toList());
        assertEquals(List.of(new WorkloadPreview.Event("2026-03-04T11:58:00Z", "Pod/api-7d9c8b6f5-fghij", "Warning",
                "BackOff", "Back-off restarting failed container api in pod api-7d9c8b6f5-fghij_shop")),
                state.events());
        assertEquals(List.of("5521907", "5521880", "5521905", "5521906"), state.facts().facts().stream()
                .filter(f -> f.name().equals("resourceVersions")).findFirst().orElseThrow().values());
        assertEquals(List.of(), state.facts().disagreements());
    }

    @Test
    void jsonOfAnotherShapeIsRefused() {
        byte[] other = "{\"hello\": \"world\"}".getBytes();
        assertThrows(Unreadable.class, () -> kubernetes.read(
                Fixtures.subject("application/json", "kubernetes", "snapshot", null), new Prefix(other, other.length)));
    }

    private WorkloadPreview demo(String capture) throws Unreadable {
        return (WorkloadPreview) kubernetes.read(
                Fixtures.subject("application/json", "kubernetes", "snapshot", capture),
                Fixtures.whole(Fixtures.DEMO + "kubernetes-workers.json"));
    }
}
