package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.incident;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.invalidJson;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

@QuarkusTest
class IncidentApiTest {

    private static final String INCIDENTS = "/api/v1/workspaces/{ws}/incidents";
    private static final String INCIDENT = "/api/v1/workspaces/{ws}/incidents/{key}";

    private static Map<String, Object> fullIncident(String key) {
        Map<String, Object> body = new HashMap<>();
        body.put("key", key);
        body.put("title", "Checkout latency and webhook delays");
        body.put("severity", "SEV-1");
        body.put("status", "resolved");
        body.put("services", List.of("Checkout API"));
        body.put("regions", List.of("EU West", "US East"));
        body.put("impactStart", "2026-06-18T09:00:00Z");
        body.put("impactEnd", "2026-06-18T12:24:00+02:00");
        body.put("commander", "Ivo Nuuskmõmmik");
        body.put("responders", List.of("Andres Kask", "Edward Green"));
        body.put("reviewOwner", "Timo Maasik");
        body.put("summary", "A deployment changed the webhook batch size from 50 to 500.");
        return body;
    }

    @Test
    void createsAnIncidentWithEveryField() {
        String key = Evidence.uniqueKey();
        Response created = json(fullIncident(key)).post(INCIDENTS, "demo");
        created.then().statusCode(201)
                .header("Location", endsWith("/api/v1/workspaces/demo/incidents/" + key))
                .body("workspace", equalTo("demo"))
                .body("key", equalTo(key))
                .body("title", equalTo("Checkout latency and webhook delays"))
                .body("severity", equalTo("SEV-1"))
                .body("status", equalTo("resolved"))
                .body("services", contains("Checkout API"))
                .body("regions", contains("EU West", "US East"))
                .body("impactStart", equalTo("2026-06-18T09:00:00Z"))
                .body("impactEnd", equalTo("2026-06-18T10:24:00Z"))
                .body("commander", equalTo("Ivo Nuuskmõmmik"))
                .body("responders", contains("Andres Kask", "Edward Green"))
                .body("reviewOwner", equalTo("Timo Maasik"))
                .body("summary", equalTo("A deployment changed the webhook batch size from 50 to 500."));
        Map<String, Object> stored = api().get(INCIDENT, "demo", key).then().statusCode(200)
                .extract().jsonPath().getMap("");
        assertEquals(created.jsonPath().getMap(""), stored);
        assertEquals(stored.get("createdAt"), stored.get("updatedAt"));
    }

    @Test
    void aNewIncidentIsInvestigatingWithEmptyLists() {
        String key = Evidence.uniqueKey();
        json(incident(key)).post(INCIDENTS, "demo").then().statusCode(201)
                .body("status", equalTo("investigating"))
                .body("services", hasSize(0))
                .body("responders", hasSize(0))
                .body("impactStart", nullValue())
                .body("summary", nullValue());
    }

    @Test
    void refusesTheSameKeyTwiceInAWorkspaceButNotAcrossWorkspaces() {
        String key = Evidence.uniqueKey();
        json(incident(key)).post(INCIDENTS, "demo").then().statusCode(201);
        problem(invalidJson(incident(key)).post(INCIDENTS, "demo").then(), 409, "incident-exists");
        json(incident(key)).post(INCIDENTS, "other-team").then().statusCode(201);
    }

    @Test
    void namesEveryInvalidField() {
        Map<String, Object> body = new HashMap<>();
        body.put("key", "inc-1");
        body.put("severity", "SEV-9");
        body.put("status", "done");
        body.put("impactStart", "18 June 2026");
        body.put("services", List.of(" "));
        problem(invalidJson(body).post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("key", "title", "severity", "status", "impactStart",
                        "services[0]"));
    }

    @Test
    void refusesAnImpactThatEndsBeforeItStarts() {
        Map<String, Object> body = fullIncident(Evidence.uniqueKey());
        body.put("impactEnd", "2026-06-18T08:00:00Z");
        problem(invalidJson(body).post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("impactEnd"));
    }

    @Test
    void refusesWhatPostgresqlCannotHold() {
        Map<String, Object> farFuture = fullIncident(Evidence.uniqueKey());
        farFuture.put("impactEnd", "+300000-01-01T00:00:00Z");
        problem(invalidJson(farFuture).post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("impactEnd"));
        Map<String, Object> nul = fullIncident(Evidence.uniqueKey());
        nul.put("title", "checkout\u0000latency");
        problem(invalidJson(nul).post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("title"));
        String halfPair = "{\"key\": \"" + Evidence.uniqueKey() + "\", \"title\": \"t\", \"severity\": \"SEV-2\", "
                + "\"summary\": \"broken \\ud800 text\"}";
        problem(invalidJson(halfPair).post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("summary"));
        problem(invalid().queryParam("cursor", "LTkwMDAwMDAwMDAwMDAwMDAwMDAvMQ").get(INCIDENTS, "demo").then(), 400,
                "invalid-request").body("errors[0].field", equalTo("cursor"));
    }

    @Test
    void refusesTimestampsWithoutOffset() {
        Map<String, Object> body = fullIncident(Evidence.uniqueKey());
        body.put("impactStart", "2026-06-18T09:00:00");
        problem(invalidJson(body).post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("impactStart"));
    }

    @Test
    void refusesUnknownFieldsAndWrongTypes() {
        Map<String, Object> unknown = new HashMap<>(incident(Evidence.uniqueKey()));
        unknown.put("createdBy", "mallory");
        problem(invalidJson(unknown).post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("createdBy"));
        Map<String, Object> wrongType = new HashMap<>(incident(Evidence.uniqueKey()));
        wrongType.put("title", 42);
        problem(invalidJson(wrongType).post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("title"));
        Map<String, Object> notAList = new HashMap<>(incident(Evidence.uniqueKey()));
        notAList.put("services", "Checkout API");
        problem(invalidJson(notAList).post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("services"));
    }

    @Test
    void refusesMalformedJsonAndMissingBodies() {
        problem(invalidJson("{\"key\": ").post(INCIDENTS, "demo").then(), 400, "invalid-request");
        problem(invalidJson("[1, 2]").post(INCIDENTS, "demo").then(), 400, "invalid-request");
        problem(invalidJson("{} {}").post(INCIDENTS, "demo").then(), 400, "invalid-request");
        problem(invalid().contentType("application/json").post(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("body"));
        problem(invalid().contentType("text/plain").body("key=INC-1").post(INCIDENTS, "demo").then(), 415,
                "unsupported-media-type");
    }

    @Test
    void refusesBadWorkspaceSlugsAndKeys() {
        for (String workspace : List.of("Demo", "-demo", "a".repeat(33), "de_mo", "d.e")) {
            problem(invalidJson(incident(Evidence.uniqueKey())).post(INCIDENTS, workspace).then(), 400, "invalid-request")
                    .body("errors[0].field", equalTo("workspace"));
        }
        for (String key : List.of("inc-1", "INC-", "INC-1234567890", "1NC-1", "INC_1")) {
            problem(invalid().get(INCIDENT, "demo", key).then(), 400, "invalid-request")
                    .body("errors[0].field", equalTo("key"));
        }
    }

    @Test
    void answersNotFoundForUnknownIncidents() {
        problem(invalid().get(INCIDENT, "demo", "NOPE-1").then(), 404, "not-found");
        problem(invalidJson(Map.of("status", "closed")).contentType("application/merge-patch+json")
                .patch(INCIDENT, "demo", "NOPE-1").then(), 404, "not-found");
    }

    @Test
    void listsNewestFirstInPages() {
        String workspace = "paging-" + System.nanoTime() % 1_000_000;
        String first = Fixtures.newIncident(workspace);
        String second = Fixtures.newIncident(workspace);
        String third = Fixtures.newIncident(workspace);
        Response page1 = api().queryParam("limit", 2).get(INCIDENTS, workspace);
        page1.then().statusCode(200).body("items.key", contains(third, second))
                .header("Link", org.hamcrest.Matchers.containsString("rel=\"next\""));
        String cursor = page1.path("nextCursor");
        api().queryParam("limit", 2).queryParam("cursor", cursor).get(INCIDENTS, workspace).then().statusCode(200)
                .body("items.key", contains(first))
                .body("nextCursor", nullValue());
        api().get(INCIDENTS, "empty-workspace").then().statusCode(200)
                .body("items", hasSize(0)).body("nextCursor", nullValue());
    }

    @Test
    void refusesBadPagingParameters() {
        problem(invalid().queryParam("limit", 0).get(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("limit"));
        problem(invalid().queryParam("limit", 201).get(INCIDENTS, "demo").then(), 400, "invalid-request");
        problem(invalid().queryParam("limit", "ten").get(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("limit"));
        problem(invalid().queryParam("cursor", "not-a-cursor").get(INCIDENTS, "demo").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("cursor"));
    }

    @Test
    void patchesMutableFieldsAsAMergePatch() {
        String key = Evidence.uniqueKey();
        Map<String, Object> created = json(fullIncident(key)).post(INCIDENTS, "demo").then().statusCode(201)
                .extract().jsonPath().getMap("");
        Map<String, Object> patch = new HashMap<>();
        patch.put("status", "in-review");
        patch.put("summary", null);
        patch.put("regions", List.of("EU West"));
        Map<String, Object> patched = json(patch).contentType("application/merge-patch+json")
                .patch(INCIDENT, "demo", key).then().statusCode(200)
                .body("status", equalTo("in-review"))
                .body("summary", nullValue())
                .body("regions", contains("EU West"))
                .body("title", equalTo(created.get("title")))
                .body("commander", equalTo(created.get("commander")))
                .body("createdAt", equalTo(created.get("createdAt")))
                .extract().jsonPath().getMap("");
        assertNotEquals(created.get("updatedAt"), patched.get("updatedAt"));
        assertEquals(patched, api().get(INCIDENT, "demo", key).then().statusCode(200).extract().jsonPath().getMap(""));
    }

    @Test
    void refusesPatchesOfTheKeyOrThatRemoveRequiredFields() {
        String key = Fixtures.newIncident("demo");
        Map<String, Object> patch = new HashMap<>();
        patch.put("key", "INC-2");
        patch.put("title", null);
        patch.put("severity", "SEV-0");
        problem(invalidJson(patch).contentType("application/merge-patch+json").patch(INCIDENT, "demo", key).then(),
                400, "invalid-request").body("errors.field", containsInAnyOrder("key", "title", "severity"));
        problem(invalidJson(Map.of("impactStart", "2026-06-18T09:00:00Z", "impactEnd", "2026-06-18T08:00:00Z"))
                .patch(INCIDENT, "demo", key).then(), 400, "invalid-request");
        api().get(INCIDENT, "demo", key).then().statusCode(200).body("key", equalTo(key))
                .body("severity", equalTo("SEV-1")).body("impactStart", nullValue());
    }
}
