package dev.evidencestore.api;

import java.util.List;

/** The RFC 9162 consistency proof between the trees of {@code from} and {@code to} leaves, as base64 hashes. */
public record ConsistencyProofResponse(long from, long to, List<String> hashes) {
}
