package dev.evidencestore.audit;

/**
 * What one write request did, as the audit log records it: who asked, in which workspace (null for blobs and the
 * audit itself), the method and path, what it created or touched, the status answered and, for a refusal, the slug
 * of its problem type.
 */
public record AuditEvent(String actor, String workspace, String method, String path, String target, int status,
                         String problem) {
}
