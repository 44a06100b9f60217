package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;

import java.time.Duration;
import java.util.stream.Stream;

/** How long a client may hold a connection without moving: {@link TransferWatch}'s limits. */
record TransferDeadlines(Duration header, Duration bodyIdle, Duration stalledTransfer) {

    TransferDeadlines {
        for (Duration limit : new Duration[] {header, bodyIdle, stalledTransfer}) {
            if (limit.isNegative() || limit.isZero()) {
                throw new IllegalArgumentException("a transfer deadline must be positive, not " + limit);
            }
        }
    }

    static TransferDeadlines of(EvidenceConfig.Http config) {
        return new TransferDeadlines(config.headerTimeout(), config.bodyIdleTimeout(), config.stalledTransferTimeout());
    }

    /** The shortest of the three, which sets how often a connection is checked. */
    Duration shortest() {
        return Stream.of(header, bodyIdle, stalledTransfer).min(Duration::compareTo).orElseThrow();
    }
}
