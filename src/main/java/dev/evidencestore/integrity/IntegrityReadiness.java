package dev.evidencestore.integrity;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports damaged blobs and the last scrub in the readiness details, where operators and probes look first. It
 * stays UP whatever it reports: damage is in the shared store, not in this instance, so taking instances out of
 * the load balancer would cut readers off from every sound blob without restoring a single damaged one (those are
 * refused one by one). It reads only the counts {@link IntegrityStatus} keeps, so it never waits for the database.
 */
@Readiness
@ApplicationScoped
public class IntegrityReadiness implements HealthCheck {

    private final IntegrityStatus status;

    IntegrityReadiness(IntegrityStatus status) {
        this.status = status;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("blob-integrity").up();
        status.known().ifPresentOrElse(known -> response
                        .withData("damagedBlobs", known.damagedBlobs())
                        .withData("lastScrub", known.lastScrub() == null ? "never" : known.lastScrub().toString())
                        .withData("countedAt", known.countedAt().toString()),
                () -> response.withData("damagedBlobs", "unknown").withData("lastScrub", "unknown"));
        return response.build();
    }
}
