package dev.evidencestore.service;

import dev.evidencestore.audit.AuditCheckpoints;
import dev.evidencestore.audit.AuditLog;
import dev.evidencestore.audit.AuditTree;
import dev.evidencestore.audit.TrustedKey;
import dev.evidencestore.audit.TrustedKeys;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.LogCheckpoint;
import dev.evidencestore.domain.SignedReview;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.render.LogProof;
import dev.evidencestore.security.CurrentActor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.util.List;

/**
 * The proof an evidence bundle carries of an incident's reviews: their statements, a checkpoint that covers every
 * review's entry, and those entries' leaves with inclusion proofs against it. The checkpoint is the latest when it
 * covers them and was signed with today's key (the one the bundle ships, so one key checks everything); otherwise
 * one is signed now.
 */
@ApplicationScoped
class LogProofs {

    private final ReviewStatementService statements;
    private final AuditCheckpoints checkpoints;
    private final AuditTree tree;
    private final AuditLog log;
    private final TrustedKeys keys;
    private final CurrentActor actor;

    LogProofs(ReviewStatementService statements, AuditCheckpoints checkpoints, AuditTree tree, AuditLog log,
              TrustedKeys keys, CurrentActor actor) {
        this.statements = statements;
        this.checkpoints = checkpoints;
        this.tree = tree;
        this.log = log;
        this.keys = keys;
        this.actor = actor;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    LogProof of(Workspace workspace, IncidentKey key) {
        List<SignedReview> signed = statements.forIncident(workspace, key);
        long covering = signed.stream().mapToLong(SignedReview::leafIndex).max().orElse(-1) + 1;
        TrustedKey signing = keys.signing();
        LogCheckpoint checkpoint = checkpoints.latest()
                .filter(latest -> latest.treeSize() >= covering && latest.keyId().equals(signing.keyId()))
                .orElseGet(checkpoints::create);
        List<LogProof.Leaf> leaves = signed.stream().map(statement -> new LogProof.Leaf(statement.leafIndex(),
                log.leaf(statement.leafIndex(), actor.get()),
                tree.inclusionProof(statement.leafIndex(), checkpoint.treeSize()))).toList();
        return new LogProof(keys.origin(), signed.stream()
                .map(statement -> new LogProof.Statement(statement.leafIndex(), statement.envelope())).toList(),
                checkpoint.note(), checkpoint.treeSize(), leaves, signing.publicKeyPem(), signing.keyId());
    }
}
