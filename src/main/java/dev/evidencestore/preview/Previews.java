package dev.evidencestore.preview;

import java.util.List;

/**
 * Chooses the preview of an artifact: the first recogniser that takes it by media type, source and kind reads the
 * bytes; when it cannot, the generic preview shows them with a note saying why. A preview never fails a page.
 */
public final class Previews {

    private final List<Recogniser> recognisers = List.of(new SourceUnavailable(), new GrafanaSnapshot(),
            new KubernetesState(), new UnifiedDiff());
    private final GenericPreview generic = new GenericPreview();

    /** A preview, the recogniser that made it, and why a recogniser's reading was given up, if it was. */
    public record Shown(Preview preview, String recogniser, String fallback) {
    }

    public boolean reads(Subject subject) {
        return generic.reads(subject) || recogniser(subject) != generic;
    }

    /** Whether the preview of such an artifact draws charts, which the incident page shows small. */
    public boolean drawsCharts(Subject subject) {
        Recogniser chosen = recogniser(subject);
        return chosen instanceof GrafanaSnapshot || chosen instanceof KubernetesState;
    }

    public Recogniser recogniser(Subject subject) {
        return recognisers.stream().filter(r -> r.accepts(subject)).findFirst().orElse(generic);
    }

    public Shown show(Subject subject, Prefix prefix) {
        Recogniser chosen = recogniser(subject);
        if (chosen == generic) {
            return new Shown(generic.read(subject, prefix), generic.name(), null);
        }
        try {
            return new Shown(chosen.read(subject, prefix), chosen.name(), null);
        } catch (Exception e) {
            // bytes that are not what their declaration says are still evidence: show them as they are
            return new Shown(generic.read(subject, prefix), generic.name(), e.getMessage());
        }
    }
}
