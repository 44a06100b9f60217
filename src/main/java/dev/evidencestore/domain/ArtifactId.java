package dev.evidencestore.domain;

/** The readable, permanent ID of an artifact: {@code artifact:{workspace}:v1:{incident}:{name}}. */
public record ArtifactId(Workspace workspace, IncidentKey incident, RecordName name) {

    private static final String SCHEME = "artifact";

    public static ArtifactId parse(String text) {
        ScopedId.Parts parts = ScopedId.parse(text, SCHEME, "name");
        return new ArtifactId(parts.workspace(), parts.incident(), parts.local(RecordName::parse));
    }

    @Override
    public String toString() {
        return ScopedId.format(SCHEME, workspace, incident, name);
    }
}
