package dev.evidencestore.preview;

/**
 * A declared capture detail that the bytes do not bear out: a window the data does not cover, a commit the diff
 * does not contain. {@code capture} names the declared member.
 */
public record Disagreement(String capture, String declared, String found) {
}
