package dev.evidencestore.service;

import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactDraft;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.CitationProblem;
import dev.evidencestore.domain.CitationRule;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.integrity.BlobIntegrity;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.persistence.BlobEntity;
import dev.evidencestore.persistence.IncidentEntity;
import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.storage.BlobStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

@ApplicationScoped
public class ArtifactService {

    private static final String FETCH = "from ArtifactEntity a join fetch a.incident i join fetch a.blob ";

    private final IncidentService incidents;
    private final BlobStore store;
    private final CurrentActor actor;
    private final BlobService blobs;
    private final BlobIntegrity integrity;
    private final BoundArtifacts bound;

    ArtifactService(IncidentService incidents, BlobStore store, CurrentActor actor,
                    BlobService blobs, BlobIntegrity integrity, BoundArtifacts bound) {
        this.integrity = integrity;
        this.bound = bound;
        this.actor = actor;
        this.incidents = incidents;
        this.store = store;
        this.blobs = blobs;
    }

    /**
     * Binds a name to a blob, write-once. The insert and the unique key decide atomically which of several
     * concurrent binds wins; a repeat with the same digest returns the stored artifact, another digest is refused.
     */
    @Transactional
    public ArtifactBinding bind(Workspace workspace, IncidentKey key, ArtifactDraft draft) {
        long incidentId = incidents.requireId(workspace, key);
        // a blob the caller cannot see is as unknown as a missing one: binding must not reveal other workspaces' bytes
        long size = blobs.visibleSize(draft.digest()).orElseThrow(() -> new Refusal(ProblemType.UNKNOWN_BLOB,
                "no blob " + draft.digest() + " has been uploaded").with("digest", draft.digest().toString()));
        return bindVisible(new BindTarget(incidentId, workspace, key), draft, size);
    }

    /** Where the items of one batch are bound: its incident, looked up once for all of them. */
    @Transactional
    public BindTarget bindTarget(Workspace workspace, IncidentKey key) {
        return new BindTarget(incidents.requireId(workspace, key), workspace, key);
    }

    /**
     * Records the bytes of several items of one batch and binds their names, in one transaction, each as an upload
     * and a bind would alone: a name already bound (before, or by an earlier item of the same call) to the same
     * digest is found bound, to another one it is refused, and the other items are bound all the same. The caller
     * sent the bytes, so it may bind them.
     */
    @Transactional
    public List<ItemBinding> bindAllReceived(BindTarget target, List<ReceivedItem> items) {
        blobs.recordAll(items.stream().map(ReceivedItem::blob).toList());
        List<ArtifactDraft> drafts = items.stream().map(ReceivedItem::draft).toList();
        boolean[] inserted = ArtifactEntity.bindAllIfFree(target.incidentId(), drafts, Clock.now(),
                actor.attribution());
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < drafts.size(); i++) {
            if (!inserted[i]) {
                taken.add(drafts.get(i).name().value());
            }
        }
        Map<String, Digest> bound = taken.isEmpty() ? Map.of()
                : ArtifactEntity.boundDigests(target.incidentId(), taken);
        List<ItemBinding> bindings = new ArrayList<>();
        for (int i = 0; i < drafts.size(); i++) {
            ArtifactDraft draft = drafts.get(i);
            ArtifactId id = new ArtifactId(target.workspace(), target.key(), draft.name());
            Digest stored = inserted[i] ? draft.digest() : bound.get(draft.name().value());
            bindings.add(stored.equals(draft.digest()) ? new ItemBinding(id, stored, inserted[i], null)
                    : new ItemBinding(id, stored, false, nameTaken(id, stored)));
        }
        return bindings;
    }

    /**
     * The insert and the unique key decide atomically which of several concurrent binds wins; a repeat with the same
     * digest returns the stored artifact, another digest is refused.
     */
    private ArtifactBinding bindVisible(BindTarget target, ArtifactDraft draft, long size) {
        ArtifactId id = new ArtifactId(target.workspace(), target.key(), draft.name());
        Optional<Artifact> bound = ArtifactEntity.bindIfFree(target.incidentId(), id, draft, size, Clock.now(),
                actor.attribution());
        if (bound.isPresent()) {
            return new ArtifactBinding(bound.get(), true);
        }
        Artifact stored = find(target.workspace(), target.key(), draft.name().value());
        if (!stored.digest().equals(draft.digest())) {
            throw nameTaken(stored.id(), stored.digest());
        }
        return new ArtifactBinding(stored, false);
    }

    private static Refusal nameTaken(ArtifactId id, Digest bound) {
        return new Refusal(ProblemType.ARTIFACT_NAME_TAKEN, id + " is bound to " + bound
                + "; evidence is never overwritten")
                .with("artifactId", id.toString())
                .with("boundDigest", bound.toString());
    }

    /** The incident an artifact is bound in, by its row and its names. */
    public record BindTarget(long incidentId, Workspace workspace, IncidentKey key) {
    }

    /** No transaction: an artifact never changes, so after its first read it comes from {@link BoundArtifacts}. */
    public Artifact get(ArtifactId id) {
        return bound.get(id);
    }

    @Transactional
    public List<Artifact> list(Workspace workspace, IncidentKey key) {
        return ArtifactEntity.ofIncident(incidents.require(workspace, key));
    }

    /**
     * The artifact's bytes, served with its media type; refused when they were found damaged. A read of a known
     * artifact asks the database nothing: the bytes are hashed as they stream instead.
     */
    public BlobContent content(ArtifactId id) {
        Artifact artifact = get(id);
        integrity.refuseIfDamaged(artifact.digest());
        return new BlobContent(artifact.digest(), artifact.size(), artifact.mediaType(), store, integrity);
    }

    /**
     * The artifact's bytes when everything a read needs is in memory already: the artifact, its blob's bytes (hashed
     * when they were cached) and a damaged list that clears them. Empty otherwise; it never blocks and never asks the
     * database, so an event-loop thread may call it and take {@link #content} when it is empty.
     */
    public Optional<HeldContent> heldContent(ArtifactId id) {
        return bound.known(id).filter(artifact -> integrity.knownUndamaged(artifact.digest()))
                .flatMap(artifact -> store.inMemory(artifact.digest())
                        .map(bytes -> new HeldContent(artifact.digest(), artifact.mediaType(), bytes)));
    }

    /**
     * The rows of artifacts cited from {@code incident}, in the order given. Every ID must name an artifact of that
     * incident that {@code admissible} accepts; otherwise the whole citation is refused (422) naming each offender.
     */
    List<ArtifactEntity> cited(IncidentEntity incident, List<ArtifactId> ids, CitationRule admissible) {
        List<ArtifactEntity> rows = new ArrayList<>();
        List<CitationProblem> problems = new ArrayList<>();
        for (ArtifactId id : ids) {
            // another workspace's IDs stay unknown: whether they exist is not this caller's business
            ArtifactEntity row = !id.workspace().slug().equals(incident.workspace) ? null
                    : ArtifactEntity.<ArtifactEntity>find(FETCH + "where i.workspace = ?1 and i.key = ?2 and a.name = ?3",
                    id.workspace().slug(), id.incident().value(), id.name().value()).firstResult();
            String problem = row == null ? CitationProblem.UNKNOWN
                    : !row.incident.id.equals(incident.id) ? CitationProblem.OTHER_INCIDENT
                    : admissible.refusal(row.toArtifact());
            if (problem == null) {
                rows.add(row);
            } else {
                problems.add(new CitationProblem(id.toString(), problem));
            }
        }
        if (!problems.isEmpty()) {
            throw CitationProblem.refusal("artifact", problems);
        }
        return rows;
    }

    /** The artifact's row, for other services working inside the same transaction. */
    ArtifactEntity row(ArtifactId id) {
        return row(id.workspace(), id.incident(), id.name().value());
    }

    /** The artifact read from the database, or a 404 refusal; reads by ID go through {@link BoundArtifacts}. */
    static Artifact find(ArtifactId id) {
        return find(id.workspace(), id.incident(), id.name().value());
    }

    private static Artifact find(Workspace workspace, IncidentKey key, String name) {
        return row(workspace, key, name).toArtifact();
    }

    private static ArtifactEntity row(Workspace workspace, IncidentKey key, String name) {
        ArtifactEntity artifact = ArtifactEntity.<ArtifactEntity>find(
                FETCH + "where i.workspace = ?1 and i.key = ?2 and a.name = ?3",
                workspace.slug(), key.value(), name).firstResult();
        if (artifact == null) {
            throw Refusal.notFound("no artifact " + name + " in incident " + key + " of workspace " + workspace);
        }
        return artifact;
    }
}
