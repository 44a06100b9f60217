package dev.evidencestore.api;

import java.util.List;

/** The RFC 9162 inclusion proof of leaf {@code index} in the tree of {@code size} leaves, as base64 hashes. */
public record InclusionProofResponse(long index, long size, List<String> hashes) {
}
