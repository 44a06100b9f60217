package dev.evidencestore.http;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.SequenceId;
import dev.evidencestore.domain.Workspace;

import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where each resource of the API lives: the templates the resources' {@code @Path} annotations take, and the paths
 * built from the same templates for Location headers and for the demo's audit entries, so the two cannot drift.
 */
public final class Routes {

    public static final String API = "/api/v1";
    public static final String BLOBS = API + "/blobs";
    public static final String BLOB = "/{digest}";
    public static final String INCIDENTS = API + "/workspaces/{workspace}/incidents";
    public static final String INCIDENT = "/{key}";
    public static final String INCIDENT_ARTIFACTS = INCIDENTS + INCIDENT + "/artifacts";
    public static final String INCIDENT_ARTIFACT_BATCHES = INCIDENTS + INCIDENT + "/artifact-batches";
    public static final String INCIDENT_FINDINGS = INCIDENTS + INCIDENT + "/findings";
    public static final String INCIDENT_ACTIONS = INCIDENTS + INCIDENT + "/actions";
    public static final String ROOT_CAUSE = INCIDENTS + INCIDENT + "/root-cause";
    public static final String TIMELINE = INCIDENTS + INCIDENT + "/timeline";
    public static final String ARTIFACT = API + "/artifacts/{id}";
    public static final String FINDING = API + "/findings/{id}";
    public static final String ACTION = API + "/actions/{id}";
    public static final String VERIFICATIONS = "/verifications";
    public static final String REVIEWS = "/reviews";
    public static final String STATEMENTS = "/statements";
    public static final String INCIDENT_STATEMENTS = INCIDENTS + INCIDENT + STATEMENTS;

    private static final Pattern PARAMETER = Pattern.compile("\\{[a-z]+}");

    private Routes() {
    }

    public static URI blob(Digest digest) {
        return expand(BLOBS + BLOB, digest);
    }

    public static URI incidents(Workspace workspace) {
        return expand(INCIDENTS, workspace);
    }

    public static URI incident(Workspace workspace, IncidentKey key) {
        return expand(INCIDENTS + INCIDENT, workspace, key);
    }

    public static URI incidentArtifacts(Workspace workspace, IncidentKey key) {
        return expand(INCIDENT_ARTIFACTS, workspace, key);
    }

    public static URI incidentFindings(Workspace workspace, IncidentKey key) {
        return expand(INCIDENT_FINDINGS, workspace, key);
    }

    public static URI incidentActions(Workspace workspace, IncidentKey key) {
        return expand(INCIDENT_ACTIONS, workspace, key);
    }

    public static URI rootCause(Workspace workspace, IncidentKey key) {
        return expand(ROOT_CAUSE, workspace, key);
    }

    public static URI rootCauseReviews(Workspace workspace, IncidentKey key) {
        return expand(ROOT_CAUSE + REVIEWS, workspace, key);
    }

    public static URI timeline(Workspace workspace, IncidentKey key) {
        return expand(TIMELINE, workspace, key);
    }

    public static URI artifact(ArtifactId id) {
        return expand(ARTIFACT, id);
    }

    public static URI verifications(ArtifactId id) {
        return expand(ARTIFACT + VERIFICATIONS, id);
    }

    public static URI finding(FindingId id) {
        return expand(FINDING, id);
    }

    public static URI findingReviews(FindingId id) {
        return expand(FINDING + REVIEWS, id);
    }

    public static URI action(SequenceId id) {
        return expand(ACTION, id);
    }

    /** The template with its parameters replaced in order; the values are IDs and slugs, which need no escaping. */
    private static URI expand(String template, Object... values) {
        Matcher parameters = PARAMETER.matcher(template);
        StringBuilder path = new StringBuilder();
        int next = 0;
        while (parameters.find()) {
            parameters.appendReplacement(path, Matcher.quoteReplacement(values[next++].toString()));
        }
        parameters.appendTail(path);
        if (next != values.length) {
            throw new IllegalArgumentException(template + " takes " + next + " values, not " + values.length);
        }
        return URI.create(path.toString());
    }
}
