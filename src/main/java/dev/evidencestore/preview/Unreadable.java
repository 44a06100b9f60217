package dev.evidencestore.preview;

/** Bytes that do not have the shape a recogniser reads; the page falls back to the generic preview. */
public class Unreadable extends Exception {

    public Unreadable(String message) {
        super(message);
    }
}
