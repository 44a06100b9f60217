package dev.evidencestore.api;

/** What a caller may send to POST /api/v1/audit/verify: a signed checkpoint it holds, to check the log extends it. */
public record AuditVerifyRequest(String checkpoint) {
}
