package dev.evidencestore.api;

import java.util.List;

/** Every verification of one artifact, oldest first. */
public record VerificationListResponse(List<VerificationResponse> items) {
}
