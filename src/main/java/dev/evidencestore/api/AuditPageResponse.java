package dev.evidencestore.api;

import java.util.List;

/** A page of a workspace's audit entries, oldest first; {@code nextCursor} is null on the last page. */
public record AuditPageResponse(List<AuditEntryResponse> items, String nextCursor) {
}
