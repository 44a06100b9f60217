package dev.evidencestore.service;

import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Finding;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.IncidentRecord;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.domain.Workspace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import org.hibernate.FlushMode;
import org.hibernate.Session;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Gathers an incident's whole record in one transaction, so a postmortem never mixes two moments. */
@ApplicationScoped
public class IncidentRecordService {

    private final IncidentService incidents;
    private final ArtifactService artifacts;
    private final VerificationService verifications;
    private final FindingService findings;
    private final RootCauseService rootCauses;
    private final TimelineService timeline;
    private final ActionService actions;
    private final EntityManager entityManager;

    IncidentRecordService(EntityManager entityManager, IncidentService incidents, ArtifactService artifacts, VerificationService verifications,
                          FindingService findings, RootCauseService rootCauses, TimelineService timeline,
                          ActionService actions) {
        this.entityManager = entityManager;
        this.incidents = incidents;
        this.artifacts = artifacts;
        this.verifications = verifications;
        this.findings = findings;
        this.rootCauses = rootCauses;
        this.timeline = timeline;
        this.actions = actions;
    }

    @Transactional
    public IncidentRecord record(Workspace workspace, IncidentKey key) {
        // only read: hundreds of loaded rows need neither snapshots for dirty checking nor a flush at commit
        Session session = entityManager.unwrap(Session.class);
        session.setDefaultReadOnly(true);
        session.setHibernateFlushMode(FlushMode.MANUAL);
        List<Artifact> stored = artifacts.list(workspace, key);
        Map<ArtifactId, List<VerificationResult>> checks = verifications.listForIncident(workspace, key);
        List<Finding> found = findings.list(workspace, key, null, null, checks);
        Map<FindingId, Finding> viewed = new HashMap<>();
        found.forEach(finding -> viewed.put(finding.id(), finding));
        return new IncidentRecord(incidents.get(workspace, key), stored, checks, found,
                rootCauses.find(workspace, key, viewed).orElse(null), timeline.list(workspace, key),
                actions.list(workspace, key));
    }
}
