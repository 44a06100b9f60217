package dev.evidencestore.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import dev.evidencestore.Caches;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.IncidentDetails;
import dev.evidencestore.domain.IncidentRecord;
import dev.evidencestore.domain.TimelineEntry;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.persistence.BlobIntegrityEntity;
import dev.evidencestore.preview.Marker;
import dev.evidencestore.preview.Overlay;
import dev.evidencestore.preview.Prefix;
import dev.evidencestore.preview.Previews;
import dev.evidencestore.preview.Subject;
import dev.evidencestore.preview.Window;
import dev.evidencestore.storage.BlobStore;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * The evidence an artifact page shows: the first bytes of the blob, at most {@code evidence.preview.max-bytes},
 * read by the recogniser its media type, source and kind choose. Damaged bytes are not shown, and a preview of
 * intact ones states what the last check of the stored bytes found, since a preview of a prefix proves nothing of
 * the digest. The incident's impact window and timeline entries come along for its charts.
 */
@ApplicationScoped
public class PreviewService {

    private static final Logger LOG = Logger.getLogger(PreviewService.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ArtifactService artifacts;
    private final IncidentService incidents;
    private final TimelineService timeline;
    private final BlobStore store;
    private final Previews previews = new Previews();
    private final int maxBytes;
    private final Semaphore slots;
    /** Facts already derived, by artifact and parser: they never change, so a read of them asks the database nothing. */
    private final Cache<String, String> described;

    PreviewService(ArtifactService artifacts, IncidentService incidents, TimelineService timeline, BlobStore store,
                   EvidenceConfig config) {
        this.artifacts = artifacts;
        this.incidents = incidents;
        this.timeline = timeline;
        this.store = store;
        this.maxBytes = (int) Math.min(Integer.MAX_VALUE - 16, config.preview().maxBytes().asLongValue());
        this.slots = new Semaphore(config.preview().maxConcurrent());
        this.described = Caches.builder().maximumSize(config.cache().artifacts()).build();
    }

    /** Whether the artifact's preview draws charts, by what was declared about it; reads no bytes. */
    public boolean drawsCharts(Artifact artifact) {
        return previews.drawsCharts(subject(artifact));
    }

    /** {@code allEntries}: mark every timeline entry on the charts, not only those citing this artifact. */
    public ArtifactPreview preview(ArtifactId id, boolean allEntries) {
        IncidentDetails details = incidents.get(id.workspace(), id.incident()).details();
        return shown(artifacts.get(id), overlay(id, details, timeline.list(id.workspace(), id.incident()),
                allEntries));
    }

    /** An artifact of a record already read, as the incident page draws its charts: no query for its incident. */
    public ArtifactPreview preview(Artifact artifact, IncidentRecord record) {
        return shown(artifact, overlay(artifact.id(), record.incident().details(), record.timeline(), false));
    }

    /**
     * The artifact with the facts its bytes say, as JSON: read once per artifact and parser version and kept
     * (table derived_facts), since neither ever changes; null when its bytes cannot be read now (damaged, the
     * store failing, every preview slot taken).
     */
    public DescribedArtifact describe(ArtifactId id) {
        Artifact artifact = artifacts.get(id);
        String parser = previews.recogniser(subject(artifact)).name();
        String key = id + " " + parser;
        String facts = described.getIfPresent(key);
        if (facts == null) {
            try {
                facts = derive(artifact, parser);
            } catch (RuntimeException e) {
                // the facts are an addition to the metadata, which is served without them when the database fails
                LOG.debugf("the derived facts of %s could not be read or kept: %s", id, e.toString());
            }
            if (facts != null) {
                described.put(key, facts);
            }
        }
        return new DescribedArtifact(artifact, facts);
    }

    private String derive(Artifact artifact, String parser) {
        ArtifactId id = artifact.id();
        Optional<String> kept = QuarkusTransaction.requiringNew().call(() -> ArtifactEntity.derivedFacts(id, parser));
        if (kept.isPresent()) {
            return kept.get();
        }
        ArtifactPreview preview = shown(artifact, Overlay.NONE);
        if (preview.shown() == null) {
            return null;
        }
        String facts = DerivedFacts.json(parser, preview);
        QuarkusTransaction.requiringNew().run(() -> ArtifactEntity.recordDerivedFacts(id, parser, facts, Clock.now()));
        return facts;
    }

    public record DescribedArtifact(Artifact artifact, String derivedFacts) {
    }

    private ArtifactPreview shown(Artifact artifact, Overlay overlay) {
        BlobIntegrityEntity check = QuarkusTransaction.joiningExisting()
                .call(() -> BlobIntegrityEntity.findById(artifact.digest().toString()));
        if (check != null && check.damaged) {
            return new ArtifactPreview(null, ArtifactPreview.State.DAMAGED, 0, artifact.size(), check.checkedAt, overlay);
        }
        ArtifactPreview.State state = check == null ? ArtifactPreview.State.NOT_CHECKED : ArtifactPreview.State.VERIFIED;
        Instant checkedAt = check == null ? null : check.checkedAt;
        Subject subject = subject(artifact);
        if (!previews.reads(subject)) {
            return new ArtifactPreview(previews.show(subject, new Prefix(new byte[0], artifact.size())), state, 0,
                    artifact.size(), checkedAt, overlay);
        }
        if (!slots.tryAcquire()) {
            return new ArtifactPreview(null, ArtifactPreview.State.BUSY, 0, artifact.size(), null, overlay);
        }
        try {
            Prefix prefix = read(artifact);
            return new ArtifactPreview(previews.show(subject, prefix), state, prefix.bytes().length, artifact.size(),
                    checkedAt, overlay);
        } catch (IOException | RuntimeException e) {
            LOG.warnf("the preview of %s could not read its stored bytes: %s", artifact.id(), e.toString());
            return new ArtifactPreview(null, ArtifactPreview.State.UNREADABLE, 0, artifact.size(), null, overlay);
        } finally {
            slots.release();
        }
    }

    private static Subject subject(Artifact artifact) {
        return new Subject(artifact.mediaType(), artifact.source(), artifact.kind().wire(), artifact.size(),
                capture(artifact.capture()));
    }

    private Prefix read(Artifact artifact) throws IOException {
        long length = Math.min(artifact.size(), maxBytes);
        try (InputStream in = store.open(artifact.digest(), 0, length)) {
            return new Prefix(in.readNBytes((int) length), artifact.size());
        }
    }

    private static Overlay overlay(ArtifactId id, IncidentDetails details, List<TimelineEntry> entries,
                                   boolean allEntries) {
        // an impact still going on is marked from its start; IncidentDetails keeps its end after its start
        Window impact = details.impactStart() == null ? null
                : new Window(details.impactStart(),
                        details.impactEnd() == null ? details.impactStart() : details.impactEnd());
        List<Marker> markers = entries.stream()
                .filter(entry -> allEntries || entry.citations().stream().anyMatch(c -> c.artifactId().equals(id)))
                .map(entry -> Marker.at(entry.at(), entry.event())).toList();
        return new Overlay(impact, markers);
    }

    private static JsonNode capture(String capture) {
        if (capture == null || capture.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(capture);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
