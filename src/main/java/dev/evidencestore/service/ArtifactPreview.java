package dev.evidencestore.service;

import dev.evidencestore.preview.Overlay;
import dev.evidencestore.preview.Previews;

import java.time.Instant;

/**
 * What an artifact page shows of the evidence: the preview (absent when the bytes are damaged, unreadable, or when
 * too many previews are being made at once), how much of the blob it read, what the last check of the stored bytes
 * found, and the incident drawn over its charts.
 */
public record ArtifactPreview(Previews.Shown shown, State state, long readBytes, long totalBytes, Instant checkedAt,
                              Overlay overlay) {

    public enum State {
        /** Shown; the last check of the stored bytes found them intact. */
        VERIFIED,
        /** Shown; no check has read the stored bytes yet. */
        NOT_CHECKED,
        /** Not shown: the last check found the stored bytes damaged. */
        DAMAGED,
        /** Not shown: the store could not be read. */
        UNREADABLE,
        /** Not shown: the instance is making as many previews as it may at once. */
        BUSY
    }

    public boolean truncated() {
        return shown != null && readBytes < totalBytes;
    }
}
