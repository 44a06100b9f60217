package dev.evidencestore.domain;

/** The readable, permanent ID of a finding: {@code finding:{workspace}:v1:{incident}:{name}}. */
public record FindingId(Workspace workspace, IncidentKey incident, RecordName name) {

    private static final String SCHEME = "finding";

    public static FindingId parse(String text) {
        ScopedId.Parts parts = ScopedId.parse(text, SCHEME, "name");
        return new FindingId(parts.workspace(), parts.incident(), parts.local(RecordName::parse));
    }

    @Override
    public String toString() {
        return ScopedId.format(SCHEME, workspace, incident, name);
    }
}
