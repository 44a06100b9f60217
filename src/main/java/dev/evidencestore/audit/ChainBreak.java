package dev.evidencestore.audit;

/** Where the audit record stops holding: the broken entry (null when the fault is not an entry's) and why. */
record ChainBreak(Long seq, String reason) {
}
