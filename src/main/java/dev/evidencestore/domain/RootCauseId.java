package dev.evidencestore.domain;

/** The ID of an incident's one root cause: {@code root-cause:{workspace}:v1:{incident}}. */
public record RootCauseId(Workspace workspace, IncidentKey incident) {

    private static final String SCHEME = "root-cause";

    @Override
    public String toString() {
        return ScopedId.format(SCHEME, workspace, incident, null);
    }
}
