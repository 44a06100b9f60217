package dev.evidencestore.audit;

/**
 * What one write request did, as the audit log records it: who asked, in which workspace (null for blobs and the
 * audit itself), the method and path, what it created or touched, the status answered and, for a refusal, the slug
 * of its problem type.
 */
public record AuditEvent(String actor, String workspace, String method, String path, String target, int status,
                         String problem) {

    /**
     * A hostile request may carry a NUL in its path (sent as %00), which PostgreSQL text cannot hold: it is recorded
     * percent-encoded again, so that the refusal is still audited.
     */
    public AuditEvent {
        actor = storable(actor);
        path = storable(path);
        target = storable(target);
    }

    private static String storable(String text) {
        return text == null ? null : text.replace("\u0000", "%00");
    }
}
