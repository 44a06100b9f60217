package dev.evidencestore.service;

import dev.evidencestore.render.ReviewStatement;

/** A review row written by the current transaction: once it commits, its statement may be signed. */
record ReviewRecorded(ReviewStatement.Record record, long reviewId) {
}
