package dev.evidencestore.preview;

/** Bytes of a type the pages cannot show; the download is the way to look at them. */
public record NoPreview(String mediaType, Facts facts) implements Preview {
}
