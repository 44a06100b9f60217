package dev.evidencestore.api;

import dev.evidencestore.support.Concurrently;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.invalidJson;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@QuarkusTest
class ActionApiTest {

    private static final String ACTIONS = "/api/v1/workspaces/{ws}/incidents/{key}/actions";
    private static final String ACTION = "/api/v1/actions/{id}";
    private static final String MERGE_PATCH = "application/merge-patch+json";
    private static final String FUTURE = "2999-12-31";
    private static final String PAST = "2020-01-31";

    private static Map<String, Object> action(String action, String due) {
        Map<String, Object> body = new HashMap<>();
        body.put("action", action);
        body.put("owner", "Edward Green");
        body.put("due", due);
        return body;
    }

    private static Map<String, Object> create(String key, Map<String, Object> action) {
        return json(action).post(ACTIONS, "demo", key).then().statusCode(201).extract().jsonPath().getMap("");
    }

    private static Response patch(String id, Map<String, Object> patch) {
        return json(patch).contentType(MERGE_PATCH).patch(ACTION, id);
    }

    @Test
    void recordsAnOpenActionNumberedWithinTheIncident() {
        String key = Fixtures.newIncident("demo");
        String id = "action:demo:v1:" + key + ":1";
        Map<String, Object> created = json(action("Alert on webhook queue depth above 10000 for 5 minutes", FUTURE))
                .post(ACTIONS, "demo", key).then().statusCode(201)
                .header("Location", endsWith("/api/v1/actions/" + id))
                .body("id", equalTo(id))
                .body("action", equalTo("Alert on webhook queue depth above 10000 for 5 minutes"))
                .body("owner", equalTo("Edward Green"))
                .body("due", equalTo(FUTURE))
                .body("status", equalTo("open"))
                .body("overdue", equalTo(false))
                .extract().jsonPath().getMap("");
        assertEquals(created.get("createdAt"), created.get("updatedAt"));
        assertEquals(created, api().get(ACTION, id).then().statusCode(200).extract().jsonPath().getMap(""));

        Map<String, Object> second = action("Cap webhook batch size in config validation", "2026-07-01");
        second.put("status", "in-progress");
        Map<String, Object> next = create(key, second);
        assertEquals("action:demo:v1:" + key + ":2", next.get("id"));
        assertEquals("in-progress", next.get("status"));
    }

    @Test
    void listsSoonestDueFirstThenInTheOrderRecorded() {
        String key = Fixtures.newIncident("demo");
        create(key, action("third", "2026-09-01"));
        create(key, action("first", "2026-08-01"));
        create(key, action("second", "2026-08-01"));
        String prefix = "action:demo:v1:" + key + ":";
        api().get(ACTIONS, "demo", key).then().statusCode(200)
                .body("items.id", contains(prefix + 2, prefix + 3, prefix + 1))
                .body("items.action", contains("first", "second", "third"))
                .body("items.due", contains("2026-08-01", "2026-08-01", "2026-09-01"));
        api().get(ACTIONS, "demo", Fixtures.newIncident("demo")).then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void overdueUntilCompleted() {
        String key = Fixtures.newIncident("demo");
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        Map<String, Object> late = create(key, action("late", PAST));
        Map<String, Object> startedLate = action("started late", PAST);
        startedLate.put("status", "in-progress");
        Map<String, Object> done = action("done late", PAST);
        done.put("status", "completed");
        assertEquals(true, late.get("overdue"));
        assertEquals(true, create(key, startedLate).get("overdue"));
        assertEquals(false, create(key, done).get("overdue"));
        assertEquals(false, create(key, action("due today", today)).get("overdue"));
        assertEquals(false, create(key, action("due later", FUTURE)).get("overdue"));
        api().get(ACTIONS, "demo", key).then().statusCode(200)
                .body("items.action", contains("late", "started late", "done late", "due today", "due later"))
                .body("items.overdue", contains(true, true, false, false, false));

        String id = (String) late.get("id");
        patch(id, Map.of("status", "completed")).then().statusCode(200).body("overdue", equalTo(false));
        patch(id, Map.of("status", "open", "due", FUTURE)).then().statusCode(200).body("overdue", equalTo(false));
        patch(id, Map.of("due", PAST)).then().statusCode(200).body("overdue", equalTo(true));
    }

    @Test
    void patchesStatusAndDueOnly() {
        String key = Fixtures.newIncident("demo");
        Map<String, Object> created = create(key, action("Alert on webhook queue depth", FUTURE));
        String id = (String) created.get("id");
        Map<String, Object> patched = patch(id, Map.of("status", "in-progress", "due", "2027-01-15")).then()
                .statusCode(200)
                .body("id", equalTo(id))
                .body("status", equalTo("in-progress"))
                .body("due", equalTo("2027-01-15"))
                .body("action", equalTo("Alert on webhook queue depth"))
                .body("owner", equalTo("Edward Green"))
                .body("createdAt", equalTo(created.get("createdAt")))
                .extract().jsonPath().getMap("");
        assertNotEquals(created.get("updatedAt"), patched.get("updatedAt"));
        assertEquals(patched, api().get(ACTION, id).then().statusCode(200).extract().jsonPath().getMap(""));

        Map<String, Object> completed = json(Map.of("status", "completed")).patch(ACTION, id).then().statusCode(200)
                .body("status", equalTo("completed")).body("due", equalTo("2027-01-15"))
                .extract().jsonPath().getMap("");
        assertNotEquals(patched.get("updatedAt"), completed.get("updatedAt"));
    }

    @Test
    void aPatchThatChangesNothingKeepsUpdatedAt() {
        String key = Fixtures.newIncident("demo");
        Map<String, Object> created = create(key, action("Alert on webhook queue depth", FUTURE));
        String id = (String) created.get("id");
        assertEquals(created, patch(id, Map.of("status", "open", "due", FUTURE)).then().statusCode(200)
                .extract().jsonPath().getMap(""));
        assertEquals(created, patch(id, Map.of()).then().statusCode(200).extract().jsonPath().getMap(""));
    }

    @Test
    void refusesPatchesOfOtherFieldsOrThatRemoveStatusOrDue() {
        String key = Fixtures.newIncident("demo");
        Map<String, Object> created = create(key, action("Alert on webhook queue depth", FUTURE));
        String id = (String) created.get("id");
        Map<String, Object> others = new HashMap<>();
        others.put("action", "Something easier");
        others.put("owner", "Mallory");
        others.put("id", "action:demo:v1:" + key + ":9");
        others.put("createdAt", "2020-01-01T00:00:00Z");
        others.put("status", "completed");
        problem(invalidJson(others).contentType(MERGE_PATCH).patch(ACTION, id).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("action", "owner", "id", "createdAt"));
        Map<String, Object> removals = new HashMap<>();
        removals.put("status", null);
        removals.put("due", null);
        problem(invalidJson(removals).contentType(MERGE_PATCH).patch(ACTION, id).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("status", "due"))
                .body("errors.message", contains("cannot be removed", "cannot be removed"));
        problem(invalidJson(Map.of("status", "done", "due", "2027-02-30")).contentType(MERGE_PATCH)
                .patch(ACTION, id).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("status", "due"));
        problem(invalidJson(Map.of("due", "01/07/2027")).patch(ACTION, id).then(), 400, "invalid-request")
                .body("errors.field", contains("due"));
        problem(invalidJson(Map.of("status", 1)).patch(ACTION, id).then(), 400, "invalid-request")
                .body("errors.field", contains("status"));
        problem(invalidJson("[\"completed\"]").patch(ACTION, id).then(), 400, "invalid-request");
        problem(invalid().contentType(MERGE_PATCH).patch(ACTION, id).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("body"));
        problem(invalid().contentType("text/plain").body("status=completed").patch(ACTION, id).then(), 415,
                "unsupported-media-type");
        assertEquals(created, api().get(ACTION, id).then().statusCode(200).extract().jsonPath().getMap(""));
    }

    @Test
    void namesEveryInvalidField() {
        String key = Fixtures.newIncident("demo");
        problem(invalidJson(Map.of()).post(ACTIONS, "demo", key).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("action", "owner", "due"));
        Map<String, Object> bad = new HashMap<>();
        bad.put("action", " ");
        bad.put("owner", "x".repeat(501));
        bad.put("due", "tomorrow");
        bad.put("status", "done");
        problem(invalidJson(bad).post(ACTIONS, "demo", key).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("action", "owner", "due", "status"));
        for (String due : List.of("2026-02-30", "2026-13-01", "2026-7-1", "2026-07-01T00:00:00Z", "+12026-07-01",
                "0000-01-01")) {
            problem(invalidJson(action("Alert", due)).post(ACTIONS, "demo", key).then(), 400, "invalid-request")
                    .body("errors.field", contains("due"))
                    .body("errors[0].message", containsString("YYYY-MM-DD"));
        }
        problem(invalidJson(action("x".repeat(20_001), FUTURE)).post(ACTIONS, "demo", key).then(), 400,
                "invalid-request").body("errors.field", contains("action"));
        Map<String, Object> unknown = action("Alert", FUTURE);
        unknown.put("overdue", false);
        problem(invalidJson(unknown).post(ACTIONS, "demo", key).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("overdue"));
        Map<String, Object> wrongType = action("Alert", FUTURE);
        wrongType.put("owner", List.of("Edward Green"));
        problem(invalidJson(wrongType).post(ACTIONS, "demo", key).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("owner"));
        problem(invalid().contentType("application/json").post(ACTIONS, "demo", key).then(), 400,
                "invalid-request").body("errors[0].field", equalTo("body"));
        api().get(ACTIONS, "demo", key).then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void answersNotFoundForUnknownIncidentsAndActions() {
        String key = Fixtures.newIncident("demo");
        problem(invalidJson(action("Alert", FUTURE)).post(ACTIONS, "demo", "NOPE-404").then(), 404, "not-found");
        problem(invalidJson(action("Alert", FUTURE)).post(ACTIONS, "elsewhere", key).then(), 404, "not-found");
        problem(invalid().get(ACTIONS, "demo", "NOPE-404").then(), 404, "not-found");
        String unknown = "action:demo:v1:" + key + ":1";
        problem(invalid().get(ACTION, unknown).then(), 404, "not-found");
        problem(invalidJson(Map.of("status", "completed")).contentType(MERGE_PATCH).patch(ACTION, unknown).then(),
                404, "not-found");
        create(key, action("Alert", FUTURE));
        api().get(ACTION, unknown).then().statusCode(200);
        problem(invalid().get(ACTION, "action:demo:v1:" + key + ":2").then(), 404, "not-found");
        problem(invalid().get(ACTION, "action:elsewhere:v1:" + key + ":1").then(), 404, "not-found");
    }

    @Test
    void refusesMalformedActionIds() {
        String key = Fixtures.newIncident("demo");
        for (String id : List.of("action:demo:v1:" + key + ":0", "action:demo:v1:" + key + ":01",
                "action:demo:v1:" + key + ":one", "timeline:demo:v1:" + key + ":1", "action:demo:v2:" + key + ":1",
                "action:Demo:v1:" + key + ":1", "action:demo:v1:inc-1:1", "42")) {
            problem(invalid().get(ACTION, id).then(), 400, "invalid-request")
                    .body("errors[0].field", equalTo("id"));
            problem(invalidJson(Map.of("status", "completed")).patch(ACTION, id).then(), 400, "invalid-request")
                    .body("errors[0].field", equalTo("id"));
        }
    }

    @Test
    void concurrentActionsGetDistinctNumbers() throws Exception {
        String key = Fixtures.newIncident("demo");
        int writers = 8;
        List<Callable<String>> posts = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            Map<String, Object> body = action("writer " + i, FUTURE);
            posts.add(() -> json(body).post(ACTIONS, "demo", key).then().statusCode(201).extract().path("id"));
        }
        List<String> ids = Concurrently.run(posts);
        List<String> expected = new ArrayList<>();
        for (int n = 1; n <= writers; n++) {
            expected.add("action:demo:v1:" + key + ":" + n);
        }
        assertThat(ids, containsInAnyOrder(expected.toArray()));
    }

    @Test
    void theDatabaseRefusesToDeleteActions() throws SQLException {
        String key = Fixtures.newIncident("demo");
        Map<String, Object> created = create(key, action("Alert on webhook queue depth", FUTURE));
        String ofThisIncident = "(SELECT id FROM incident WHERE workspace = 'demo' AND incident_key = ?)";
        SQLException refused = assertThrows(SQLException.class,
                () -> Sql.update("DELETE FROM action_item WHERE incident_id = " + ofThisIncident, key));
        assertThat(refused.getMessage(), containsString("evidence is write-once"));
        assertEquals(1, Sql.count("SELECT count(*) FROM action_item WHERE incident_id = " + ofThisIncident, key));
        assertEquals(created, api().get(ACTION, created.get("id")).then().statusCode(200)
                .extract().jsonPath().getMap(""));
    }
}
