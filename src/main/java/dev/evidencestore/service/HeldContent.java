package dev.evidencestore.service;

import dev.evidencestore.domain.Digest;

/** An artifact's whole bytes as held in memory, checked against their digest when they were first read. */
public record HeldContent(Digest digest, String mediaType, byte[] bytes) {
}
