package dev.evidencestore.service;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Referrer;
import dev.evidencestore.domain.SequenceId;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.persistence.FindingCitationEntity;
import dev.evidencestore.persistence.RootCauseFindingEntity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.util.ArrayList;
import java.util.List;

/**
 * What rests on an artifact, like OCI referrers: findings and timeline entries that cite it, and root causes that
 * cite those findings. Nobody should doubt or lose evidence without seeing this.
 */
@ApplicationScoped
public class ReferrerService {

    private final ArtifactService artifacts;
    private final EntityManager entityManager;

    ReferrerService(ArtifactService artifacts, EntityManager entityManager) {
        this.artifacts = artifacts;
        this.entityManager = entityManager;
    }

    @Transactional
    public List<Referrer> referrers(ArtifactId id) {
        ArtifactEntity artifact = artifacts.row(id);
        List<Referrer> referrers = new ArrayList<>();
        List<FindingCitationEntity> citations = FindingCitationEntity.<FindingCitationEntity>find(
                "from FindingCitationEntity c join fetch c.finding f join fetch f.incident where c.artifact = ?1 "
                        + "order by f.name", artifact).list();
        for (FindingCitationEntity citation : citations) {
            referrers.add(new Referrer(Referrer.FINDING, citation.finding.findingId().toString(),
                    citation.finding.status, Digest.parse(citation.digest), null));
        }
        for (FindingCitationEntity citation : citations) {
            RootCauseFindingEntity.<RootCauseFindingEntity>find(
                            "from RootCauseFindingEntity l join fetch l.rootCause r join fetch r.incident "
                                    + "where l.finding = ?1", citation.finding)
                    .stream()
                    .forEach(link -> referrers.add(new Referrer(Referrer.ROOT_CAUSE,
                            link.rootCause.rootCauseId().toString(), link.rootCause.status,
                            Digest.parse(citation.digest), citation.finding.findingId().toString())));
        }
        referrers.addAll(timelineEntries(id, artifact));
        return referrers;
    }

    @SuppressWarnings("unchecked")
    private List<Referrer> timelineEntries(ArtifactId id, ArtifactEntity artifact) {
        List<Object[]> rows = entityManager.createNativeQuery("""
                        SELECT e.number, c.digest FROM timeline_citation c JOIN timeline_entry e ON e.id = c.entry_id
                        WHERE c.artifact_id = :artifact ORDER BY e.at, e.number""")
                .setParameter("artifact", artifact.id).getResultList();
        return rows.stream().map(row -> new Referrer(Referrer.TIMELINE_ENTRY,
                new SequenceId(SequenceId.TIMELINE, id.workspace(), id.incident(), ((Number) row[0]).intValue())
                        .toString(), null, Digest.parse((String) row[1]), null)).toList();
    }
}
