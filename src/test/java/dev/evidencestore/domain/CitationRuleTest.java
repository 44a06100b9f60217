package dev.evidencestore.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What each kind of finding may cite. */
class CitationRuleTest {

    private static Artifact artifact(ArtifactKind kind) {
        Instant at = Instant.parse("2026-06-18T10:00:00Z");
        return new Artifact(ArtifactId.parse("artifact:demo:v1:INC-1:record"), Digest.parse("sha256:" + "c".repeat(64)),
                10, "application/json", "intercom", kind, at, at, null, null, "alice");
    }

    @Test
    void aGapCitesOnlyRecordsThatASourceWasUnavailable() {
        assertNull(FindingKind.GAP.citationRule().refusal(artifact(ArtifactKind.SOURCE_UNAVAILABLE)));
        assertEquals("is a snapshot; a gap finding cites only source-unavailable artifacts",
                FindingKind.GAP.citationRule().refusal(artifact(ArtifactKind.SNAPSHOT)));
    }

    @Test
    void supportingAndNegativeFindingsCiteAnyEvidence() {
        for (FindingKind kind : new FindingKind[] {FindingKind.SUPPORTING, FindingKind.NEGATIVE}) {
            for (ArtifactKind evidence : ArtifactKind.values()) {
                assertNull(kind.citationRule().refusal(artifact(evidence)), kind + " citing " + evidence);
            }
        }
    }
}
