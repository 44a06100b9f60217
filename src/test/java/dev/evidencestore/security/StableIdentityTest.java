package dev.evidencestore.security;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;

/**
 * A caller is the token's issuer and subject; the name it shows is only for reading. One subject under two
 * spellings of its name is one person to four eyes and to its blobs, two subjects sharing a name are two, and a
 * token whose identity claims are of the wrong type or unshowable is refused, never read generously.
 */
@QuarkusTest
class StableIdentityTest {

    private static final String WORKSPACE = "identity";
    private static final String INCIDENTS = "/api/v1/workspaces/{ws}/incidents";
    private static final String REVIEWS = "/api/v1/findings/{id}/reviews";
    /** Alice's subject, showing her name capitalized. */
    private static final String ALICE_CAPITALIZED = Tokens.of("alice", "Alice", Tokens.ALL_ROLES, null);
    /** Another subject who is also called alice. */
    private static final String OTHER_ALICE = Tokens.of("alice-2", "alice", Tokens.ALL_ROLES, null);

    private static String incident() {
        String key = Evidence.uniqueKey();
        as(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("key", key, "title", "t", "severity", "SEV-3"))
                .post(INCIDENTS, WORKSPACE).then().statusCode(201);
        return key;
    }

    private static String upload(String token, byte[] bytes) {
        return as(token).contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs").then().statusCode(201)
                .extract().path("digest");
    }

    /** A finding by alice citing an artifact she uploaded, verified since by bob, so that only four eyes decide. */
    private static String findingVerifiedByBob() {
        String key = incident();
        String digest = upload(Tokens.alice(), Evidence.uniqueBytes(40));
        String artifactId = as(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("name", "panel",
                        "digest", digest, "mediaType", "application/json", "source", "grafana", "kind", "snapshot",
                        "capturedAt", "2026-06-18T09:00:00Z"))
                .post(INCIDENTS + "/{key}/artifacts", WORKSPACE, key).then().statusCode(201).extract().path("id");
        String findingId = as(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("name", "queue-rise",
                        "kind", "supporting", "statement", "Queue rose.", "artifactIds", List.of(artifactId)))
                .post(INCIDENTS + "/{key}/findings", WORKSPACE, key).then().statusCode(201)
                .body("createdBy", equalTo("alice")).extract().path("id");
        as(Tokens.bob()).contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", artifactId)
                .then().statusCode(201).body("verified", equalTo(true));
        return findingId;
    }

    private static ValidatableResponse accept(String token, String findingId) {
        return invalidAs(token).contentType(ContentType.JSON).body(Map.of("decision", "accepted", "note", "Checked."))
                .post(REVIEWS, findingId).then();
    }

    private static void refusedAsProposer(String token, String reviewer, String findingId) {
        problem(accept(token, findingId), 409, "four-eyes")
                .body("detail", equalTo(reviewer + " proposed " + findingId + "; someone else must accept it"))
                .body("reviewer", equalTo(reviewer));
    }

    @Test
    void oneSubjectUnderAnotherSpellingCannotAcceptItsOwnFinding() {
        String findingId = findingVerifiedByBob();
        refusedAsProposer(ALICE_CAPITALIZED, "Alice", findingId);
    }

    @Test
    void twoSubjectsSharingANameAreTwoPeople() {
        String findingId = findingVerifiedByBob();
        accept(OTHER_ALICE, findingId).statusCode(201).body("status", equalTo("accepted"))
                .body("reviews[0].reviewedBy", equalTo("alice"));
    }

    /** A finding written before principals were recorded has only names, and four eyes compares those. */
    @Test
    void aRecordFromBeforePrincipalsComparesByName() throws SQLException {
        String findingId = findingVerifiedByBob();
        Sql.update("UPDATE finding SET created_by_principal = NULL, proposed_by_principal = NULL "
                + "WHERE created_by_principal IS NOT NULL AND id = (SELECT f.id FROM finding f "
                + "JOIN incident i ON i.id = f.incident_id WHERE i.workspace = ? AND i.incident_key = ?)",
                WORKSPACE, findingId.split(":")[3]);
        refusedAsProposer(OTHER_ALICE, "alice", findingId);
    }

    @Test
    void aBlobIsItsUploadersByPrincipal() {
        String digest = upload(Tokens.alice(), Evidence.uniqueBytes(32));
        as(ALICE_CAPITALIZED).get("/api/v1/blobs/{digest}", digest).then().statusCode(200);
        problem(invalidAs(OTHER_ALICE).get("/api/v1/blobs/{digest}", digest).then(), 404, "not-found");
    }

    /** An upload recorded before principals has only the uploader's name, and is theirs by name. */
    @Test
    void anUploadFromBeforePrincipalsIsItsUploadersByName() throws SQLException {
        String digest = upload(Tokens.of("carol", "collector", "reader"), Evidence.uniqueBytes(32));
        Sql.update("INSERT INTO blob_upload (digest, uploaded_by, uploaded_at) VALUES (?, 'alice', now())", digest);
        as(OTHER_ALICE).get("/api/v1/blobs/{digest}", digest).then().statusCode(200);
        problem(invalidAs(Tokens.of("dave", "collector", "reader")).get("/api/v1/blobs/{digest}", digest).then(),
                404, "not-found");
    }

    @Test
    void withoutUpnOrPreferredUsernameTheSubjectIsShown() {
        String bySub = Tokens.withClaims("\"sub\":\"u-4711\",\"groups\":[\"investigator\"]");
        String byPreferred = Tokens.withClaims("\"sub\":\"u-4712\",\"preferred_username\":\"erin\","
                + "\"groups\":[\"investigator\"]");
        as(bySub).contentType(ContentType.JSON).body(Map.of("key", Evidence.uniqueKey(), "title", "t",
                "severity", "SEV-3")).post(INCIDENTS, WORKSPACE).then().statusCode(201)
                .body("createdBy", equalTo("u-4711"));
        as(byPreferred).contentType(ContentType.JSON).body(Map.of("key", Evidence.uniqueKey(), "title", "t",
                "severity", "SEV-3")).post(INCIDENTS, WORKSPACE).then().statusCode(201)
                .body("createdBy", equalTo("erin"));
    }

    @Test
    void identityClaimsOfTheWrongTypeAreRefused() {
        String roles = "\"groups\":[\"investigator\",\"reader\"]";
        refused("\"sub\":\"alice\",\"upn\":\"alice\"," + roles + ",\"workspaces\":null",
                "the bearer token's workspaces must be an array of strings");
        refused("\"sub\":\"alice\",\"upn\":\"alice\"," + roles + ",\"workspaces\":\"demo\"",
                "the bearer token's workspaces must be an array of strings");
        refused("\"sub\":\"alice\",\"upn\":\"alice\"," + roles + ",\"workspaces\":[\"demo\",7]",
                "the bearer token's workspaces must be an array of strings");
        refused("\"sub\":\"alice\",\"upn\":\"alice\",\"groups\":{}",
                "the bearer token's groups must be an array of strings");
        refused("\"sub\":5,\"upn\":\"alice\"," + roles, "the bearer token's sub must be a string");
        refused("\"sub\":\"alice\",\"upn\":5," + roles, "the bearer token's upn must be a string");
        refused("\"sub\":\"alice\",\"upn\":null," + roles, "the bearer token's upn must be a string");
        refused("\"upn\":\"alice\"," + roles, "the bearer token's sub is missing; it is what tells one caller from "
                + "another");
    }

    @Test
    void namesThatCannotBeShownAreRefused() {
        String roles = "\"groups\":[\"investigator\",\"reader\"]";
        String unshowable = " must be 1 to 200 printable characters, without spaces at either end";
        refused("\"sub\":\"alice\",\"upn\":\"\"," + roles, "the bearer token's upn" + unshowable);
        refused("\"sub\":\"alice\",\"upn\":\" alice\"," + roles, "the bearer token's upn" + unshowable);
        refused("\"sub\":\"alice\",\"upn\":\"al\\u0000ice\"," + roles, "the bearer token's upn" + unshowable);
        refused("\"sub\":\"alice\",\"upn\":\"al\\u202eice\"," + roles, "the bearer token's upn" + unshowable);
        refused("\"sub\":\"alice\",\"upn\":\"" + "a".repeat(201) + "\"," + roles, "the bearer token's upn"
                + unshowable);
        refused("\"sub\":\"alice\",\"preferred_username\":\"\"," + roles,
                "the bearer token's preferred_username" + unshowable);
        refused("\"sub\":\"alice\",\"upn\":\"anonymous\"," + roles,
                "the bearer token's upn \"anonymous\" is reserved for callers without a token");
        refused("\"sub\":\"Anonymous\"," + roles,
                "the bearer token's sub \"Anonymous\" is reserved for callers without a token");
        refused("\"sub\":\"\",\"upn\":\"alice\"," + roles,
                "the bearer token's sub must be 1 to 255 printable characters");
        as(Tokens.withClaims("\"sub\":\"alice\",\"upn\":\"" + "a".repeat(200) + "\"," + roles))
                .get(INCIDENTS, WORKSPACE).then().statusCode(200);
    }

    /** Refused on a read as on a write: the token is refused before any claim of it is used. */
    private static void refused(String claims, String detail) {
        String token = Tokens.withClaims(claims);
        problem(invalidAs(token).get(INCIDENTS, WORKSPACE).then(), 401, "unauthorized")
                .header("WWW-Authenticate", "Bearer").body("detail", equalTo(detail));
        problem(invalidAs(token).contentType(ContentType.JSON).body(Map.of("key", Evidence.uniqueKey(),
                "title", "t", "severity", "SEV-3")).post(INCIDENTS, WORKSPACE).then(), 401, "unauthorized")
                .body("detail", equalTo(detail));
    }
}
