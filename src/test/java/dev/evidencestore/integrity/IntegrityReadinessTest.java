package dev.evidencestore.integrity;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The readiness check answers from the kept counts alone: without any database it is UP and says it does not know. */
class IntegrityReadinessTest {

    @Test
    void staysUpAndSaysUnknownBeforeTheDatabaseEverAnswered() {
        // no entity manager at all: any attempt to reach the database would fail this test
        IntegrityStatus status = new IntegrityStatus(null, new SimpleMeterRegistry());

        HealthCheckResponse response = new IntegrityReadiness(status).call();

        assertEquals("blob-integrity", response.getName());
        assertEquals(HealthCheckResponse.Status.UP, response.getStatus());
        assertEquals(Map.of("damagedBlobs", "unknown", "lastScrub", "unknown"), response.getData().orElseThrow());
    }
}
