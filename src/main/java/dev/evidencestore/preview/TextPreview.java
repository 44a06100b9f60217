package dev.evidencestore.preview;

import java.util.List;

/** Text shown with line numbers. */
public record TextPreview(List<String> lines, Facts facts) implements Preview {

    public TextPreview {
        lines = List.copyOf(lines);
    }
}
