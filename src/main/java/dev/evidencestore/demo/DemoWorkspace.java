package dev.evidencestore.demo;

import dev.evidencestore.audit.AuditEvent;
import dev.evidencestore.audit.AuditLog;
import dev.evidencestore.audit.EntryLink;
import dev.evidencestore.cluster.ClusterLock;
import dev.evidencestore.demo.DemoInvestigation.ArtifactFile;
import dev.evidencestore.demo.DemoInvestigation.FindingRecord;
import dev.evidencestore.demo.DemoInvestigation.NarrativeText;
import dev.evidencestore.demo.DemoInvestigation.ReviewRecord;
import dev.evidencestore.demo.DemoInvestigation.TimelineRecord;
import dev.evidencestore.domain.ActionDraft;
import dev.evidencestore.domain.ActionStatus;
import dev.evidencestore.domain.ArtifactDraft;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.ArtifactKind;
import dev.evidencestore.domain.Confidence;
import dev.evidencestore.domain.Decision;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.FindingDraft;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.FindingKind;
import dev.evidencestore.domain.IncidentDetails;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.IncidentPatch;
import dev.evidencestore.domain.IncidentStatus;
import dev.evidencestore.domain.Narrative;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.RecordName;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.ReviewDraft;
import dev.evidencestore.domain.ReviewStatus;
import dev.evidencestore.domain.RootCauseDraft;
import dev.evidencestore.domain.Severity;
import dev.evidencestore.domain.TimelineEntryDraft;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.Routes;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.ActionService;
import dev.evidencestore.service.ArtifactService;
import dev.evidencestore.service.BlobService;
import dev.evidencestore.service.FindingService;
import dev.evidencestore.service.IncidentService;
import dev.evidencestore.service.RootCauseService;
import dev.evidencestore.service.TimelineService;
import dev.evidencestore.service.VerificationService;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableContext;
import io.quarkus.arc.ManagedContext;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.apache.commons.codec.digest.DigestUtils;
import org.jboss.logging.Logger;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The demo workspace: re-creates the seed investigation INC-1423 from {@code demo/INC-1423/} at startup when
 * {@code evidence.demo.load} is true (in dev mode; elsewhere {@code EVIDENCE_DEMO_LOAD=true}).
 *
 * <p>Everything goes through the services the API calls, in the order an investigation happens, each step as the
 * person who would take it, so that four eyes holds exactly as for API clients: the collector uploads and binds the
 * artifacts, the investigator creates the incident and proposes findings, root cause, chronology, actions and
 * narrative, and the reviewer verifies the stored bytes and accepts. Each write is appended to the audit log as the
 * API request that does the same would be.
 *
 * <p>Loading is idempotent: when the incident is there already, nothing happens. A failure is logged and the
 * service starts anyway; a demo must never keep the service from starting.
 */
@ApplicationScoped
public class DemoWorkspace {

    private static final Logger LOG = Logger.getLogger(DemoWorkspace.class);

    private final DemoConfig config;
    private final IncidentService incidents;
    private final BlobService blobs;
    private final ArtifactService artifacts;
    private final VerificationService verifications;
    private final FindingService findings;
    private final RootCauseService rootCauses;
    private final TimelineService timeline;
    private final ActionService actions;
    private final CurrentIdentityAssociation identities;
    private final AuditLog audit;
    private final ClusterLock cluster;
    private final EntryLink link;

    private volatile RuntimeException startupFailure;

    DemoWorkspace(DemoConfig config, IncidentService incidents, BlobService blobs, ArtifactService artifacts,
                  VerificationService verifications, FindingService findings, RootCauseService rootCauses,
                  TimelineService timeline, ActionService actions, CurrentIdentityAssociation identities,
                  AuditLog audit, ClusterLock cluster, EntryLink link) {
        this.link = link;
        this.config = config;
        this.incidents = incidents;
        this.blobs = blobs;
        this.artifacts = artifacts;
        this.verifications = verifications;
        this.findings = findings;
        this.rootCauses = rootCauses;
        this.timeline = timeline;
        this.actions = actions;
        this.identities = identities;
        this.audit = audit;
        this.cluster = cluster;
    }

    void onStart(@Observes StartupEvent event) {
        if (!config.load()) {
            return;
        }
        try {
            load();
        } catch (RuntimeException e) {
            startupFailure = e;
            if (e instanceof Refusal refusal) {
                LOG.errorf("DEMO WORKSPACE NOT LOADED into %s: refused (%s) %s %s; the service starts without it",
                        config.workspace(), refusal.type().slug(), refusal.getMessage(), refusal.extensions());
            } else {
                LOG.errorf(e, "DEMO WORKSPACE NOT LOADED into %s; the service starts without it", config.workspace());
            }
        }
    }

    /** Why loading at startup failed, or null when it did not (or was not asked for). */
    RuntimeException startupFailure() {
        return startupFailure;
    }

    /**
     * Loads the demo investigation into the configured workspace ({@code evidence.demo.workspace}).
     *
     * @return true when it was loaded, false when the incident was there already and nothing was done
     */
    public boolean load() {
        return load(Workspace.parse(config.workspace()));
    }

    /** Loads the demo investigation into {@code workspace}; false when the incident was there already. */
    public boolean load(Workspace workspace) {
        // instances starting together would otherwise race through the same steps; the second one then finds it loaded
        return cluster.runExclusively("demo-load", () -> loadAlone(workspace));
    }

    private boolean loadAlone(Workspace workspace) {
        DemoInvestigation demo = DemoInvestigation.read();
        IncidentKey key = IncidentKey.parse(demo.incident().key());
        if (present(workspace, key)) {
            if (decided(workspace, key)) {
                LOG.infof("demo workspace: %s/%s is there already; nothing loaded", workspace, key);
            } else {
                LOG.warnf("demo workspace: %s/%s is there already but has no accepted root cause, so an earlier load "
                        + "may have been interrupted; records are write-once, so nothing is loaded (drop the "
                        + "database, or set evidence.demo.workspace to another workspace)", workspace, key);
            }
            return false;
        }
        Loading loading = new Loading(workspace, key, demo);
        if (!loading.createIncident()) {
            LOG.infof("demo workspace: %s/%s was created at the same moment by someone else; nothing loaded",
                    workspace, key);
            return false;
        }
        loading.storeArtifacts();
        loading.proposeFindings();
        loading.verifyEvidence();
        loading.acceptFindings();
        loading.acceptRootCause();
        loading.recordChronology();
        loading.recordActions();
        loading.writeNarrative();
        LOG.infof("demo workspace: loaded %s/%s (%d artifacts, %d findings, accepted root cause, %d timeline entries, "
                        + "%d actions) as %s, %s and %s", workspace, key, demo.artifacts().size(),
                demo.findings().size(), demo.timeline().size(), demo.actions().size(), demo.people().collector(),
                demo.people().investigator(), demo.people().reviewer());
        return true;
    }

    private boolean decided(Workspace workspace, IncidentKey key) {
        try {
            return rootCauses.get(workspace, key).status() == ReviewStatus.ACCEPTED;
        } catch (Refusal refusal) {
            if (refusal.type() == ProblemType.NOT_FOUND) {
                return false;
            }
            throw refusal;
        }
    }

    private boolean present(Workspace workspace, IncidentKey key) {
        try {
            incidents.get(workspace, key);
            return true;
        } catch (Refusal refusal) {
            if (refusal.type() == ProblemType.NOT_FOUND) {
                return false;
            }
            throw refusal;
        }
    }

    /** One load: the steps of the investigation, in order, each by its person. */
    private final class Loading {

        private final Workspace workspace;
        private final IncidentKey key;
        private final DemoInvestigation demo;
        private final String collector;
        private final String investigator;
        private final String reviewer;
        private final Map<String, Digest> digests = new LinkedHashMap<>();

        Loading(Workspace workspace, IncidentKey key, DemoInvestigation demo) {
            this.workspace = workspace;
            this.key = key;
            this.demo = demo;
            this.collector = demo.people().collector();
            this.investigator = demo.people().investigator();
            this.reviewer = demo.people().reviewer();
        }

        /** False when someone else created the incident first. */
        boolean createIncident() {
            DemoInvestigation.IncidentHeader header = demo.incident();
            IncidentDetails details = new IncidentDetails(header.title(), Severity.parse(header.severity()),
                    IncidentStatus.parse(header.status()), header.services(), header.regions(),
                    instant(header.impactStart()), instant(header.impactEnd()), header.commander(),
                    header.responders(), header.reviewOwner(), header.summary(), Narrative.EMPTY);
            try {
                write(investigator, Set.of(Roles.INVESTIGATOR, Roles.READER), workspace, "POST",
                        Routes.incidents(workspace), () -> incidents.create(workspace, key, details),
                        incident -> Answer.created(Routes.incident(workspace, key)));
                return true;
            } catch (Refusal refusal) {
                if (refusal.type() == ProblemType.INCIDENT_EXISTS) {
                    return false;
                }
                throw refusal;
            }
        }

        void storeArtifacts() {
            for (ArtifactFile file : demo.artifacts()) {
                byte[] bytes = DemoInvestigation.bytesOf(file);
                Digest digest = Digest.of(DigestUtils.sha256(bytes));
                URI blobPath = Routes.blob(digest);
                write(collector, Set.of(Roles.COLLECTOR), null, "PUT", blobPath, () -> {
                    try {
                        return blobs.record(blobs.receive(new ByteArrayInputStream(bytes), Set.of(digest), (long) bytes.length));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, ingest -> Answer.bound(ingest.created(), blobPath));
                ArtifactDraft draft = new ArtifactDraft(RecordName.parse(file.name()), digest, file.mediaType(),
                        file.source(), ArtifactKind.parse(file.kind()), instant(file.capturedAt()),
                        file.description(), file.capture() == null ? null : file.capture().toString());
                write(collector, Set.of(Roles.COLLECTOR), workspace, "POST", Routes.incidentArtifacts(workspace, key),
                        () -> artifacts.bind(workspace, key, draft),
                        binding -> Answer.bound(binding.created(), Routes.artifact(binding.artifact().id())));
                digests.put(file.name(), digest);
            }
        }

        void proposeFindings() {
            for (FindingRecord finding : demo.findings()) {
                FindingDraft draft = new FindingDraft(RecordName.parse(finding.name()),
                        FindingKind.parse(finding.kind()), finding.statement(), artifactIds(finding.artifacts()));
                write(investigator, Set.of(Roles.INVESTIGATOR, Roles.READER), workspace, "POST",
                        Routes.incidentFindings(workspace, key), () -> findings.propose(workspace, key, draft),
                        binding -> Answer.bound(binding.created(), Routes.finding(binding.finding().id())));
            }
        }

        /** The reviewer re-hashes the stored bytes of every artifact, claiming the digest of the file they hold. */
        void verifyEvidence() {
            for (Map.Entry<String, Digest> artifact : digests.entrySet()) {
                ArtifactId id = artifactId(artifact.getKey());
                VerificationResult result = write(reviewer, Set.of(Roles.REVIEWER, Roles.READER), workspace, "POST",
                        Routes.verifications(id), () -> verifications.record(verifications.rehash(id, artifact.getValue())),
                        verification -> Answer.createdAt(id.toString()));
                if (!result.verified()) {
                    throw new IllegalStateException("the stored bytes of " + id + " failed verification");
                }
            }
        }

        void acceptFindings() {
            for (FindingRecord finding : demo.findings()) {
                FindingId id = findingId(finding.name());
                ReviewDraft review = review(finding.review());
                write(reviewer, Set.of(Roles.REVIEWER, Roles.READER), workspace, "POST", Routes.findingReviews(id),
                        () -> findings.review(id, review), reviewed -> Answer.created(Routes.finding(id)));
            }
        }

        void acceptRootCause() {
            DemoInvestigation.RootCauseRecord rootCause = demo.rootCause();
            RootCauseDraft draft = new RootCauseDraft(rootCause.statement(), Confidence.parse(rootCause.confidence()),
                    rootCause.findings().stream().map(this::findingId).toList());
            URI path = Routes.rootCause(workspace, key);
            write(investigator, Set.of(Roles.INVESTIGATOR, Roles.READER), workspace, "PUT", path,
                    () -> rootCauses.put(workspace, key, draft), binding -> Answer.bound(binding.created(), path));
            ReviewDraft review = review(rootCause.review());
            ReviewStatus status = write(reviewer, Set.of(Roles.REVIEWER, Roles.READER), workspace, "POST",
                    Routes.rootCauseReviews(workspace, key), () -> rootCauses.review(workspace, key, review),
                    reviewed -> Answer.created(path)).status();
            if (status != ReviewStatus.ACCEPTED && review.decision() == Decision.ACCEPTED) {
                throw new IllegalStateException("the root cause of " + key + " is " + status.wire() + ", not accepted");
            }
        }

        void recordChronology() {
            for (TimelineRecord entry : demo.timeline()) {
                TimelineEntryDraft draft = new TimelineEntryDraft(instant(entry.at()), entry.event(),
                        artifactIds(entry.artifacts()));
                write(investigator, Set.of(Roles.INVESTIGATOR, Roles.READER), workspace, "POST",
                        Routes.timeline(workspace, key), () -> timeline.record(workspace, key, draft),
                        recorded -> Answer.createdAt(null));
            }
        }

        void recordActions() {
            for (DemoInvestigation.ActionRecord action : demo.actions()) {
                ActionDraft draft = new ActionDraft(action.action(), action.owner(), LocalDate.parse(action.due()),
                        ActionStatus.parse(action.status()));
                write(investigator, Set.of(Roles.INVESTIGATOR, Roles.READER), workspace, "POST",
                        Routes.incidentActions(workspace, key), () -> actions.create(workspace, key, draft),
                        item -> Answer.created(Routes.action(item.id())));
            }
        }

        /** The postmortem's prose, written onto the incident once the investigation is decided (a merge patch). */
        void writeNarrative() {
            NarrativeText text = demo.narrative();
            Narrative narrative = new Narrative(text.investigationQuestion(), text.impact(),
                    text.contributingFactors(), text.wentWell(), text.madeHarder(), text.detectionGap());
            IncidentPatch patch = new IncidentPatch(Set.of("investigationQuestion", "impact", "contributingFactors",
                    "wentWell", "madeHarder", "detectionGap"), null, null, null, null, null, null, null, null, null,
                    null, null, narrative);
            write(investigator, Set.of(Roles.INVESTIGATOR, Roles.READER), workspace, "PATCH",
                    Routes.incident(workspace, key), () -> incidents.patch(workspace, key, patch),
                    incident -> new Answer(200, null, null));
        }

        private ArtifactId artifactId(String name) {
            return new ArtifactId(workspace, key, RecordName.parse(name));
        }

        private FindingId findingId(String name) {
            return new FindingId(workspace, key, RecordName.parse(name));
        }

        private List<ArtifactId> artifactIds(List<String> names) {
            return names.stream().map(this::artifactId).toList();
        }
    }

    /**
     * What the API would answer to the request doing the same write: its status, the Location it would send, and the
     * ID in its path; the audit entry's target follows from them by the audit filter's own rule.
     */
    private record Answer(int status, URI location, String pathId) {

        static Answer created(URI location) {
            return new Answer(201, location, null);
        }

        /** 201 for a new record; 200 when the same record was there already. */
        static Answer bound(boolean created, URI location) {
            return new Answer(created ? 201 : 200, location, null);
        }

        /** 201 without a Location, at the ID in the path. */
        static Answer createdAt(String pathId) {
            return new Answer(201, null, pathId);
        }

        String target() {
            return AuditEvent.target(location, pathId);
        }
    }

    /**
     * Does {@code work} as {@code name}, then appends the audit entry that the API request doing the same would
     * leave ({@code method} on {@code path}): the answer on success, the problem's status and slug on a refusal,
     * which is rethrown. {@code workspace} is null for blobs, as in the API's entries. The entry carries the write's
     * request ID, as an audited write's does, so that a review finds its entry and its statement can be signed.
     */
    private <T> T write(String name, Set<String> roles, Workspace workspace, String method, URI path,
                        Supplier<T> work, Function<T, Answer> answer) {
        String slug = workspace == null ? null : workspace.slug();
        UUID requestId = UUID.randomUUID();
        T result;
        try {
            result = as(name, roles, () -> {
                link.begin(requestId);
                return work.get();
            });
        } catch (Refusal refusal) {
            audit.append(new AuditEvent(name, slug, method, path.getPath(), null, refusal.type().status(),
                    refusal.type().slug()));
            throw refusal;
        }
        Answer answered = answer.apply(result);
        audit.append(new AuditEvent(name, slug, method, path.getPath(), answered.target(), answered.status(), null)
                .linkedTo(requestId));
        return result;
    }

    /**
     * Runs {@code work} in a request context of its own whose security identity is {@code name} with {@code roles},
     * so that the services record that name as createdBy, verifiedBy or reviewedBy, as they do for a token's
     * principal. A request context active on this thread is set aside meanwhile and restored afterwards.
     */
    private <T> T as(String name, Set<String> roles, Supplier<T> work) {
        ManagedContext requestContext = Arc.container().requestContext();
        InjectableContext.ContextState outer = requestContext.isActive() ? requestContext.getState() : null;
        requestContext.activate();
        try {
            identities.setIdentity(QuarkusSecurityIdentity.builder()
                    .setPrincipal(new QuarkusPrincipal(name))
                    .addRoles(roles)
                    .build());
            return work.get();
        } finally {
            requestContext.terminate();
            if (outer != null) {
                requestContext.activate(outer);
            }
        }
    }

    private ReviewDraft review(ReviewRecord review) {
        return new ReviewDraft(Decision.parse(review.decision()), review.note());
    }

    private static Instant instant(String text) {
        return text == null ? null : Instant.parse(text);
    }
}
