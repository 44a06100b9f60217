package dev.evidencestore.service;

import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.IncidentEntity;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.OptionalLong;

import static dev.evidencestore.support.Api.json;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Incidents' row IDs kept in memory for bindings: only what a committed transaction read, so that an incident whose
 * creating transaction rolled back is never taken for one that exists.
 */
@QuarkusTest
class KnownIncidentsTest {

    private static final Workspace DEMO = new Workspace("demo");

    @Inject
    IncidentService incidents;

    @Inject
    KnownIncidents known;

    @Test
    void anIncidentReadIsKeptOnceItsTransactionCommitted() {
        IncidentKey key = new IncidentKey(Fixtures.newIncident("demo"));
        long id = QuarkusTransaction.requiringNew().call(() -> {
            long read = incidents.requireId(DEMO, key);
            assertEquals(OptionalLong.of(read), known.known(DEMO, key), "the reading transaction asks once");
            assertEquals(OptionalLong.empty(), QuarkusTransaction.requiringNew().call(() -> known.known(DEMO, key)),
                    "kept for other transactions before its own committed");
            return read;
        });
        assertEquals(OptionalLong.of(id), known.known(DEMO, key));
        assertEquals(id, QuarkusTransaction.requiringNew().call(() -> IncidentEntity.byKey(DEMO, key).id));
        assertEquals(id, QuarkusTransaction.requiringNew().call(() -> incidents.requireId(DEMO, key)));
    }

    @Test
    void anIncidentWhoseCreationRolledBackIsNeverKept() {
        IncidentKey key = new IncidentKey(Evidence.uniqueKey());
        QuarkusTransaction.begin();
        try {
            unsaved(key).persistAndFlush();
            assertTrue(incidents.requireId(DEMO, key) > 0);
        } finally {
            QuarkusTransaction.rollback();
        }
        assertEquals(OptionalLong.empty(), known.known(DEMO, key));
        // with the rolled-back ID kept, the binding would name a row that does not exist
        String digest = Fixtures.upload(Evidence.uniqueBytes(100));
        json(Fixtures.artifact("never-bound", digest))
                .post("/api/v1/workspaces/{ws}/incidents/{key}/artifacts", "demo", key.value())
                .then().statusCode(404).contentType("application/problem+json")
                .body("type", equalTo("https://evidence-store.dev/problems/not-found"))
                .body("detail", equalTo("no incident " + key.value() + " in workspace demo"));
    }

    private static IncidentEntity unsaved(IncidentKey key) {
        IncidentEntity incident = new IncidentEntity();
        incident.workspace = DEMO.slug();
        incident.key = key.value();
        incident.title = "Rolled back";
        incident.severity = "SEV-3";
        incident.status = "investigating";
        incident.services = new String[0];
        incident.regions = new String[0];
        incident.responders = new String[0];
        incident.contributingFactors = new String[0];
        incident.wentWell = new String[0];
        incident.madeHarder = new String[0];
        incident.createdAt = Instant.now();
        incident.updatedAt = incident.createdAt;
        incident.createdBy = "known-incidents-test";
        return incident;
    }
}
