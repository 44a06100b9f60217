package dev.evidencestore.preview;

/** JSON of no kind a recogniser knows, indented for reading. */
public record JsonPreview(String pretty, int lines, Facts facts) implements Preview {
}
