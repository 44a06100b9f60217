package dev.evidencestore.service;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Referrer;
import dev.evidencestore.domain.SequenceId;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.persistence.FindingCitationEntity;
import dev.evidencestore.persistence.RootCauseFindingEntity;
import dev.evidencestore.persistence.TimelineCitationEntity;
import jakarta.enterprise.context.ApplicationScoped;
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

    ReferrerService(ArtifactService artifacts) {
        this.artifacts = artifacts;
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

    private static List<Referrer> timelineEntries(ArtifactId id, ArtifactEntity artifact) {
        return TimelineCitationEntity.citing(artifact.id).stream().map(entry -> new Referrer(Referrer.TIMELINE_ENTRY,
                new SequenceId(SequenceId.TIMELINE, id.workspace(), id.incident(), entry.number()).toString(), null,
                Digest.parse(entry.digest()), null)).toList();
    }
}
