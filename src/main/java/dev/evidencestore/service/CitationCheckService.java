package dev.evidencestore.service;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.CheckedCitation;
import dev.evidencestore.domain.CheckedCitation.Status;
import dev.evidencestore.domain.CitationsInText;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.security.Actor;
import dev.evidencestore.security.CurrentActor;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;

/**
 * Checks a postmortem written anywhere against the store: every {@code artifact:…} and {@code finding:…} ID is
 * resolved, and an artifact is only {@code ok} when its latest verification passed and no other digest is put next
 * to it on the same line. The text is read twice, for its distinct IDs and then for their mentions, so that the
 * work and the answer grow with the distinct IDs (at most {@code evidence.citations.max-distinct-ids}), and the
 * database is asked in one short transaction between the two readings.
 */
@ApplicationScoped
public class CitationCheckService {

    private static final int RETRY_AFTER_SECONDS = 1;

    private final CitedRecords records;
    private final CurrentActor actor;
    private final Set<String> publicWorkspaces;
    private final int maxDistinctIds;
    private final Semaphore running;

    CitationCheckService(CitedRecords records, CurrentActor actor, EvidenceConfig config) {
        this.records = records;
        this.actor = actor;
        this.publicWorkspaces = config.publicReadWorkspaces().orElse(Set.of());
        this.maxDistinctIds = config.citations().maxDistinctIds();
        this.running = new Semaphore(config.citations().maxConcurrentChecks());
    }

    /**
     * One entry per distinct ID, in the order the IDs first appear; 503 service-busy at once when
     * {@code evidence.citations.max-concurrent-checks} checks are running.
     */
    public List<CheckedCitation> check(String text) {
        if (!running.tryAcquire()) {
            throw new Refusal(ProblemType.SERVICE_BUSY, "the service is checking as many texts as it checks at once; "
                    + "retry shortly").with("retryAfterSeconds", RETRY_AFTER_SECONDS);
        }
        try {
            return checkRunning(text);
        } finally {
            running.release();
        }
    }

    private List<CheckedCitation> checkRunning(String text) {
        Map<String, Resolved> resolved = resolve(CitationsInText.distinctIds(text, maxDistinctIds));
        Map<String, CheckedCitation> checked = new LinkedHashMap<>();
        CitationsInText.scan(text, mention -> {
            Resolved target = resolved.get(mention.id());
            Status status = target.statusOn(mention.digestsOnLine());
            checked.merge(mention.id(), CheckedCitation.first(mention.id(), mention.line(), status, target.digest()),
                    (earlier, again) -> earlier.and(again.line(), again.status()));
        });
        return List.copyOf(checked.values());
    }

    private Map<String, Resolved> resolve(Set<String> ids) {
        Map<String, ArtifactId> artifacts = new HashMap<>();
        Map<String, FindingId> findings = new HashMap<>();
        for (String id : ids) {
            try {
                if (id.startsWith("artifact:")) {
                    ArtifactId artifact = ArtifactId.parse(id);
                    if (visible(artifact.workspace())) {
                        artifacts.put(id, artifact);
                    }
                } else {
                    FindingId finding = FindingId.parse(id);
                    if (visible(finding.workspace())) {
                        findings.put(id, finding);
                    }
                }
            } catch (Refusal unparsable) {
                // well formed for the reading, but not an ID: unknown like any other
            }
        }
        CitedRecords.Found found = records.lookUp(new ArrayList<>(artifacts.values()),
                new ArrayList<>(findings.values()));
        Map<String, Resolved> resolved = new HashMap<>();
        for (String id : ids) {
            resolved.put(id, Resolved.UNKNOWN);
        }
        artifacts.forEach((text, id) -> {
            ArtifactEntity.Standing standing = found.artifacts().get(id);
            if (standing != null) {
                resolved.put(text, Resolved.of(standing));
            }
        });
        findings.forEach((text, id) -> {
            if (found.findings().contains(id)) {
                resolved.put(text, Resolved.FINDING);
            }
        });
        return resolved;
    }

    /** Another workspace's records are unknown here, exactly as everywhere else. */
    private boolean visible(Workspace workspace) {
        Actor caller = actor.get();
        return publicWorkspaces.contains(workspace.slug()) || caller.holds(workspace);
    }

    /** What the store holds for one ID, and how a line that cites it fares. */
    private record Resolved(Status status, Digest digest) {

        static final Resolved UNKNOWN = new Resolved(Status.UNKNOWN, null);
        static final Resolved FINDING = new Resolved(Status.OK, null);

        static Resolved of(ArtifactEntity.Standing standing) {
            Status status = standing.latestVerified() == null ? Status.UNVERIFIED
                    : standing.latestVerified() ? Status.OK : Status.FAILED_VERIFICATION;
            return new Resolved(status, standing.digest());
        }

        /** A line that puts digests next to the ID must put this artifact's digest among them. */
        Status statusOn(List<String> digestsOnLine) {
            if (digest != null && !digestsOnLine.isEmpty() && !digestsOnLine.contains(digest.toString())
                    && status != Status.UNKNOWN) {
                return Status.DIGEST_MISMATCH;
            }
            return status;
        }
    }
}
