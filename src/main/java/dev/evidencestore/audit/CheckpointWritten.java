package dev.evidencestore.audit;

/** A checkpoint was written in the current transaction: it is published once that commits. */
record CheckpointWritten(long id) {
}
