package dev.evidencestore.service;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.CheckedCitation;
import dev.evidencestore.domain.CheckedCitation.Status;
import dev.evidencestore.domain.CitationsInText;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.security.Actor;
import dev.evidencestore.security.CurrentActor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a postmortem written anywhere against the store: every {@code artifact:…} and {@code finding:…} ID is
 * resolved, and an artifact is only {@code ok} when its latest verification passed and no other digest is put next
 * to it on the same line.
 */
@ApplicationScoped
public class CitationCheckService {

    private final ArtifactService artifacts;
    private final VerificationService verifications;
    private final FindingService findings;
    private final CurrentActor actor;
    private final Set<String> publicWorkspaces;

    CitationCheckService(ArtifactService artifacts, VerificationService verifications, FindingService findings,
                         CurrentActor actor, EvidenceConfig config) {
        this.artifacts = artifacts;
        this.verifications = verifications;
        this.findings = findings;
        this.actor = actor;
        this.publicWorkspaces = config.publicReadWorkspaces().orElse(Set.of());
    }

    @Transactional
    public List<CheckedCitation> check(String text) {
        Map<String, Resolved> resolved = new HashMap<>();
        List<CheckedCitation> citations = new ArrayList<>();
        for (CitationsInText.Mention mention : CitationsInText.read(text)) {
            Resolved target = resolved.computeIfAbsent(mention.id(), this::resolve);
            citations.add(new CheckedCitation(mention.id(), mention.line(), target.statusOn(mention.digestsOnLine()),
                    target.digest()));
        }
        return citations;
    }

    private Resolved resolve(String id) {
        try {
            return id.startsWith("artifact:") ? artifact(ArtifactId.parse(id)) : finding(FindingId.parse(id));
        } catch (Refusal unknown) {
            return Resolved.UNKNOWN;
        }
    }

    private Resolved artifact(ArtifactId id) {
        if (!visible(id.workspace())) {
            return Resolved.UNKNOWN;
        }
        Artifact artifact = artifacts.get(id);
        List<VerificationResult> checks = verifications.list(id);
        Status status = checks.isEmpty() ? Status.UNVERIFIED
                : checks.get(checks.size() - 1).verified() ? Status.OK : Status.FAILED_VERIFICATION;
        return new Resolved(status, artifact.digest());
    }

    private Resolved finding(FindingId id) {
        if (!visible(id.workspace())) {
            return Resolved.UNKNOWN;
        }
        findings.get(id);
        return new Resolved(Status.OK, null);
    }

    /** Another workspace's records are unknown here, exactly as everywhere else. */
    private boolean visible(Workspace workspace) {
        Actor caller = actor.get();
        return publicWorkspaces.contains(workspace.slug()) || caller.holds(workspace);
    }

    /** What the store holds for one ID, and how a line that cites it fares. */
    private record Resolved(Status status, Digest digest) {

        static final Resolved UNKNOWN = new Resolved(Status.UNKNOWN, null);

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
