package dev.evidencestore.service;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.persistence.CustomPlans;
import dev.evidencestore.persistence.FindingEntity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The records a citation check asks about, looked up in batches: a few statements in one short transaction
 * whatever the number of IDs, so that a check holds a database connection for milliseconds, not for a query per ID.
 */
@ApplicationScoped
class CitedRecords {

    /** IDs per statement: a check of the 2,000 distinct IDs it may look up runs four per kind. */
    static final int BATCH = 500;

    /** What the store holds for the IDs asked about; an ID missing from it does not exist. */
    record Found(Map<ArtifactId, ArtifactEntity.Standing> artifacts, Set<FindingId> findings) {
    }

    @Transactional
    Found lookUp(List<ArtifactId> artifacts, List<FindingId> findings) {
        CustomPlans.forThisTransaction();
        Map<ArtifactId, ArtifactEntity.Standing> standings = new HashMap<>();
        for (List<ArtifactId> batch : batches(artifacts)) {
            standings.putAll(ArtifactEntity.standings(batch));
        }
        Set<FindingId> existing = new HashSet<>();
        for (List<FindingId> batch : batches(findings)) {
            existing.addAll(FindingEntity.existing(batch));
        }
        return new Found(standings, existing);
    }

    private static <T> List<List<T>> batches(List<T> ids) {
        int count = (ids.size() + BATCH - 1) / BATCH;
        return IntStream.range(0, count)
                .mapToObj(i -> ids.subList(i * BATCH, Math.min(ids.size(), (i + 1) * BATCH))).toList();
    }
}
