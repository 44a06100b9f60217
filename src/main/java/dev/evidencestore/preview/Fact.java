package dev.evidencestore.preview;

import java.util.List;

/**
 * Something a reviewer checks, read from the bytes themselves rather than from what the tooling declared: the time
 * window the data covers, the namespaces and names, the commits of a diff. {@code name} is stable for machines,
 * {@code label} reads well on a page.
 */
public record Fact(String name, String label, List<String> values) {

    public Fact {
        values = List.copyOf(values);
    }
}
