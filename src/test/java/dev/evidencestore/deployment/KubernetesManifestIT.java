package dev.evidencestore.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The manifests the build generates are the ones docs/operations.md, "Running at scale", tells operators to apply. */
class KubernetesManifestIT {

    private static JsonNode deployment;
    private static JsonNode migrationJob;
    private static final List<String> KINDS = new ArrayList<>();

    @BeforeAll
    static void readGeneratedManifests() throws IOException {
        JsonNode resources = new ObjectMapper().readTree(Path.of("target/kubernetes/kubernetes.json").toFile());
        for (JsonNode resource : resources) {
            KINDS.add(resource.path("kind").asText());
            switch (resource.path("kind").asText()) {
                case "Deployment" -> deployment = resource;
                case "Job" -> migrationJob = resource;
                default -> { }
            }
        }
    }

    private static JsonNode container() {
        return deployment.at("/spec/template/spec/containers/0");
    }

    @Test
    void probesAskTheHealthEndpoints() {
        assertEquals("/q/health/ready", container().at("/readinessProbe/httpGet/path").asText());
        assertEquals("/q/health/live", container().at("/livenessProbe/httpGet/path").asText());
        assertEquals("/q/health/started", container().at("/startupProbe/httpGet/path").asText());
        assertEquals(8080, container().at("/readinessProbe/httpGet/port").asInt());
    }

    @Test
    void severalReplicasWithResourceRequestsAndAMemoryLimit() {
        assertEquals(2, deployment.at("/spec/replicas").asInt());
        assertEquals("500m", container().at("/resources/requests/cpu").asText());
        assertEquals("320Mi", container().at("/resources/requests/memory").asText());
        assertEquals("512Mi", container().at("/resources/limits/memory").asText());
    }

    @Test
    void configurationComesFromAConfigMapAndSecrets() {
        List<String> sources = new ArrayList<>();
        container().path("envFrom").forEach(source -> sources.add(source.path("configMapRef").path("name").asText("")
                + source.path("secretRef").path("name").asText("")));
        assertTrue(sources.contains("evidence-store-config"), sources.toString());
        assertTrue(sources.contains("evidence-store-secrets"), sources.toString());
        assertEquals("evidence-store-keys", deployment.at("/spec/template/spec/volumes/0/secret/secretName").asText());
        assertEquals("/etc/evidence-store/keys", container().at("/volumeMounts/0/mountPath").asText());
    }

    @Test
    void migrationsRunOnceInAJobNotInEveryReplica() {
        assertEquals("evidence-store-flyway-init", migrationJob.at("/metadata/name").asText());
        assertTrue(container().path("env").toString().contains("{\"name\":\"QUARKUS_FLYWAY_ACTIVE\",\"value\":\"false\"}"),
                container().path("env").toString());
    }

    @Test
    void onlyTheMigrationJobHoldsTheOwnersCredentials() {
        List<String> job = secretsOf(migrationContainer());
        assertTrue(job.contains("evidence-store-migration"), job.toString());
        assertTrue(migrationContainer().at("/envFrom").toString()
                .contains("{\"secretRef\":{\"name\":\"evidence-store-migration\",\"optional\":true}}"),
                "an installation with one role has no such secret: " + migrationContainer().at("/envFrom"));
        List<String> service = secretsOf(container());
        assertFalse(service.contains("evidence-store-migration"), service.toString());
        assertTrue(job.containsAll(service), "the Job also has the runtime role's settings: " + job);
    }

    /**
     * The memory settings docs/operations.md measured: a cap per compilation, two malloc arenas, shallower inlining,
     * the AOT cache.
     */
    @Test
    void theServiceRunsWithTheMeasuredMemorySettings() {
        String options = env(container(), "JAVA_OPTS_APPEND");
        assertTrue(options.contains("-XX:CompileCommand=MemLimit,*.*,48m"), options);
        assertTrue(options.contains("-XX:TrimNativeHeapInterval=5000"), options);
        assertTrue(options.contains("-XX:MaxInlineLevel=9 -XX:InlineSmallCode=1000"), options);
        assertTrue(options.contains("-XX:AOTCache=/deployments/app.aot"), options);
        assertEquals("2", env(container(), "MALLOC_ARENA_MAX"));
    }

    /** src/main/kubernetes/kubernetes.yml names the Job, and then has to give what Quarkus would have given it. */
    @Test
    void theMigrationJobRunsTheServicesImage() {
        assertEquals(container().path("image").asText(), migrationContainer().path("image").asText(),
                "change the image in src/main/kubernetes/kubernetes.yml to the Deployment's");
        assertEquals("OnFailure", migrationJob.at("/spec/template/spec/restartPolicy").asText());
        assertEquals("true", env(migrationContainer(), "QUARKUS_INIT_AND_EXIT"));
        assertEquals("true", env(migrationContainer(), "QUARKUS_FLYWAY_ACTIVE"));
    }

    private static JsonNode migrationContainer() {
        return migrationJob.at("/spec/template/spec/containers/0");
    }

    private static List<String> secretsOf(JsonNode container) {
        List<String> names = new ArrayList<>();
        container.path("envFrom").forEach(source -> {
            if (source.has("secretRef")) {
                names.add(source.path("secretRef").path("name").asText());
            }
        });
        return names;
    }

    private static String env(JsonNode container, String name) {
        for (JsonNode variable : container.path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable.path("value").asText();
            }
        }
        return null;
    }

    @Test
    void metricsAreScrapedByAnnotationWithoutTheOperatorsCustomResource() {
        JsonNode annotations = deployment.at("/metadata/annotations");
        assertEquals("true", annotations.path("prometheus.io/scrape").asText());
        assertEquals("/q/metrics", annotations.path("prometheus.io/path").asText());
        assertEquals("8080", annotations.path("prometheus.io/port").asText());
        assertFalse(KINDS.contains("ServiceMonitor"), KINDS.toString());
    }
}
