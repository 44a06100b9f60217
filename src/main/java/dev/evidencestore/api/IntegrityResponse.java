package dev.evidencestore.api;

import dev.evidencestore.domain.IntegrityReport;
import dev.evidencestore.domain.IntegrityTotals;

import java.time.Instant;
import java.util.List;

/** The store's integrity totals and the damaged artifacts the caller may see. */
public record IntegrityResponse(long blobs, long blobsChecked, long damagedBlobs, Instant lastScrub,
                                List<DamagedArtifactResponse> items) {

    static IntegrityResponse of(IntegrityReport report) {
        IntegrityTotals totals = report.totals();
        return new IntegrityResponse(totals.blobs(), totals.blobsChecked(), totals.damagedBlobs(), totals.lastScrub(),
                report.damaged().stream().map(DamagedArtifactResponse::of).toList());
    }
}
