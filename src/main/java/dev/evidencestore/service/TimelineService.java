package dev.evidencestore.service;

import dev.evidencestore.domain.CitationRule;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.TimelineCitation;
import dev.evidencestore.domain.TimelineEntry;
import dev.evidencestore.domain.TimelineEntryDraft;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.persistence.IncidentEntity;
import dev.evidencestore.persistence.TimelineCitationEntity;
import dev.evidencestore.persistence.TimelineEntryEntity;
import dev.evidencestore.security.CurrentActor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The chronology of an incident: write-once entries, numbered in the order they were recorded. */
@ApplicationScoped
public class TimelineService {

    private final IncidentService incidents;
    private final ArtifactService artifacts;
    private final CurrentActor actor;

    TimelineService(IncidentService incidents, ArtifactService artifacts, CurrentActor actor) {
        this.actor = actor;
        this.incidents = incidents;
        this.artifacts = artifacts;
    }

    /**
     * Records an entry. The incident row stays locked until commit, so the next number is taken by one writer at a
     * time. Every cited artifact must belong to the incident; each citation pins the digest the artifact has now.
     */
    @Transactional
    public TimelineEntry record(Workspace workspace, IncidentKey key, TimelineEntryDraft draft) {
        IncidentEntity incident = incidents.requireLocked(workspace, key);
        List<ArtifactEntity> cited = artifacts.cited(incident, draft.artifactIds(), CitationRule.ANY);
        TimelineEntryEntity entry = new TimelineEntryEntity();
        entry.incident = incident;
        entry.number = incidents.nextNumber(incident, TimelineEntryEntity.class);
        entry.at = draft.at();
        entry.event = draft.event();
        entry.createdAt = Clock.now();
        entry.createdBy = actor.name();
        entry.createdByPrincipal = actor.principal();
        entry.persist();
        List<TimelineCitation> citations = new ArrayList<>();
        for (int position = 0; position < cited.size(); position++) {
            TimelineCitationEntity citation = new TimelineCitationEntity();
            citation.entry = entry;
            citation.artifact = cited.get(position);
            citation.digest = citation.artifact.blob.digest;
            citation.position = position;
            citation.persist();
            citations.add(citation.toCitation());
        }
        return entry.toTimelineEntry(citations);
    }

    /** Every entry, by when it happened and then by the order it was recorded in. */
    @Transactional
    public List<TimelineEntry> list(Workspace workspace, IncidentKey key) {
        // cited artifacts are the incident's own, which the persistence context holds: not joined to every row
        IncidentEntity incident = incidents.require(workspace, key);
        Map<Long, List<TimelineCitation>> citations = new LinkedHashMap<>();
        TimelineCitationEntity.<TimelineCitationEntity>find("""
                        from TimelineCitationEntity c join fetch c.artifact
                        where c.entry.incident = ?1 order by c.entry.id, c.position""", incident)
                .stream().forEach(c -> citations.computeIfAbsent(c.entry.id, id -> new ArrayList<>())
                        .add(c.toCitation()));
        return TimelineEntryEntity.<TimelineEntryEntity>find("incident = ?1 order by at, number", incident).stream()
                .map(entry -> entry.toTimelineEntry(citations.getOrDefault(entry.id, List.of()))).toList();
    }
}
