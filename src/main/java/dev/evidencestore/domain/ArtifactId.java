package dev.evidencestore.domain;

/** The readable, permanent ID of an artifact: {@code artifact:{workspace}:v1:{incident}:{name}}. */
public record ArtifactId(Workspace workspace, IncidentKey incident, ArtifactName name) {

    private static final String SCHEME = "artifact";
    private static final String VERSION = "v1";
    private static final String FORM = "artifact:{workspace}:v1:{incident}:{name}";

    public static ArtifactId parse(String text) {
        String[] parts = text == null ? new String[0] : text.split(":", -1);
        if (parts.length != 5 || !SCHEME.equals(parts[0]) || !VERSION.equals(parts[2])) {
            throw Refusal.invalid("id", "must have the form " + FORM);
        }
        try {
            return new ArtifactId(new Workspace(parts[1]), new IncidentKey(parts[3]), new ArtifactName(parts[4]));
        } catch (Refusal refusal) {
            throw Refusal.invalid("id", "must have the form " + FORM + "; " + refusal.getMessage());
        }
    }

    @Override
    public String toString() {
        return SCHEME + ":" + workspace + ":" + VERSION + ":" + incident + ":" + name;
    }
}
