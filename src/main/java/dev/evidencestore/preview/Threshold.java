package dev.evidencestore.preview;

/** A level a panel marks, such as the value an alert fires above, in the colour the panel gives it. */
public record Threshold(double value, String color) {
}
