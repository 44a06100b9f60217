package dev.evidencestore.service;

import dev.evidencestore.domain.ArtifactDraft;
import dev.evidencestore.storage.StoredBlob;

/** An item of a batch whose bytes were just stored, and the artifact its sender asks to bind to them. */
public record ReceivedItem(StoredBlob blob, ArtifactDraft draft) {
}
