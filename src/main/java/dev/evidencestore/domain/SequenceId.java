package dev.evidencestore.domain;

/**
 * IDs of records numbered within their incident, such as {@code timeline:demo:v1:INC-1423:3} and
 * {@code action:demo:v1:INC-1423:2}.
 */
public record SequenceId(String scheme, Workspace workspace, IncidentKey incident, int number) {

    public static final String TIMELINE = "timeline";
    public static final String ACTION = "action";

    public static SequenceId parse(String scheme, String text) {
        ScopedId.Parts parts = ScopedId.parse(text, scheme, "number");
        return new SequenceId(scheme, parts.workspace(), parts.incident(), parts.local(SequenceId::number));
    }

    private static int number(String text) {
        if (text == null || !text.matches("[1-9][0-9]{0,8}")) {
            throw Refusal.invalid("number", "must be a positive number");
        }
        return Integer.parseInt(text);
    }

    @Override
    public String toString() {
        return ScopedId.format(scheme, workspace, incident, number);
    }
}
