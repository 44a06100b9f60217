package dev.evidencestore.service;

import dev.evidencestore.audit.AuditCheckpoints;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.IncidentRecord;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.integrity.BlobIntegrity;
import dev.evidencestore.render.EvidenceBundle;
import dev.evidencestore.render.EvidenceManifest;
import dev.evidencestore.render.LogProof;
import dev.evidencestore.render.PostmortemAnchors;
import dev.evidencestore.render.PostmortemHtml;
import dev.evidencestore.render.PostmortemMarkdown;
import jakarta.enterprise.context.ApplicationScoped;
import dev.evidencestore.storage.ReadAhead;
import jakarta.transaction.Transactional;

/** Postmortem pages and the evidence manifest, generated from the record, never written by hand. */
@ApplicationScoped
public class PostmortemService {

    private final IncidentRecordService records;
    private final AuditCheckpoints checkpoints;
    private final BlobIntegrity integrity;
    private final LogProofs proofs;

    PostmortemService(IncidentRecordService records, AuditCheckpoints checkpoints, BlobIntegrity integrity,
                      LogProofs proofs) {
        this.proofs = proofs;
        this.records = records;
        this.checkpoints = checkpoints;
        this.integrity = integrity;
    }

    /** The postmortem as CommonMark that renders cleanly on GitHub. */
    @Transactional
    public String markdown(Workspace workspace, IncidentKey key) {
        return markdown(records.record(workspace, key));
    }

    private String markdown(IncidentRecord record) {
        return PostmortemMarkdown.render(record, EvidenceManifest.of(record), checkpoints.latest().orElse(null));
    }

    /** The postmortem as an HTML fragment (no html/head/body), for pages that wrap it. */
    @Transactional
    public String html(Workspace workspace, IncidentKey key) {
        return PostmortemHtml.render(markdown(workspace, key));
    }

    /**
     * The postmortem as the incident's web page shows it: the same HTML with an anchor on every timeline entry,
     * finding, action and the root cause, named by its ID, and the record it was made from.
     */
    @Transactional
    public Page page(Workspace workspace, IncidentKey key) {
        IncidentRecord record = records.record(workspace, key);
        return new Page(PostmortemHtml.render(markdown(record), PostmortemAnchors.of(record)), record);
    }

    public record Page(String html, IncidentRecord record) {
    }

    @Transactional
    public EvidenceManifest manifest(Workspace workspace, IncidentKey key) {
        return EvidenceManifest.of(records.record(workspace, key));
    }

    /**
     * The bundle of this moment's record; its artifact bytes stream from the store when it is written, each checked
     * against its digest. Refused when any of them was found damaged: a bundle is the evidence whole or nothing.
     * The proof of its reviews comes first, so that a checkpoint it signs is the one the postmortem shows.
     */
    @Transactional
    public EvidenceBundle bundle(Workspace workspace, IncidentKey key) {
        IncidentRecord record = records.record(workspace, key);
        integrity.refuseIfAnyDamaged(record.artifacts().stream().map(Artifact::digest).toList());
        LogProof proof = proofs.of(workspace, key);
        return new EvidenceBundle(EvidenceManifest.of(record), markdown(record), record.artifacts(),
                // each artifact's next block, and the next artifact's first, are fetched while the current is zipped
                artifact -> new ReadAhead(integrity.openChecked(artifact.digest(), artifact.size(),
                        "an evidence bundle"), artifact.size()), proof);
    }
}
