package dev.evidencestore.persistence;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Warns at start in production when the service's database role could undo the write-once triggers. A warning, not
 * a refusal: a single-role installation worked before there were two roles, and must keep starting.
 */
@Singleton
public class RuntimeRoleCheck {

    private static final Logger LOG = Logger.getLogger(RuntimeRoleCheck.class);

    void check(@Observes StartupEvent startup, Statements statements) {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        try {
            statements.onOwnConnection("checking the database role", RuntimeRole::of).warning().ifPresent(LOG::warn);
        } catch (IllegalStateException e) {
            // the database may be down at start; readiness reports that, and the check is not worth a failed start
            LOG.warnf("could not check the privileges of the database role: %s", e.getMessage());
        }
    }
}
