package dev.evidencestore.preview;

/** An image the browser shows from the artifact's content URL; the page reads none of its bytes. */
public record ImagePreview(String mediaType, Facts facts) implements Preview {
}
