package dev.evidencestore.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Default artifact names and media types, from file names. */
class NamesTest {

    @ParameterizedTest
    @CsvSource({
        "grafana-checkout.json, grafana-checkout",
        "Grafana Checkout (p95).JSON, grafana-checkout-p95",
        "deploy.2026-06-18.diff, deploy-2026-06-18",
        "--notes--.txt, notes",
        "README, readme",
        ".env, env"})
    void aFileNameBecomesASlugWithoutItsLastExtension(String fileName, String name) {
        assertEquals(name, ArtifactName.ofFileName(fileName));
    }

    @ParameterizedTest
    @ValueSource(strings = {"...", "___.json", "☃.txt"})
    void aFileNameWithoutLettersOrDigitsNeedsAName(String fileName) {
        CommandFailure failure = assertThrows(CommandFailure.class, () -> ArtifactName.ofFileName(fileName));
        assertEquals(ExitCodes.USAGE, failure.exitCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Upper", "-lead", "under_score", ""})
    void aGivenNameMustBeASlug(String name) {
        assertThrows(CommandFailure.class, () -> ArtifactName.require(name));
    }

    @Test
    void aLongNameIsCutToSixtyFourWithoutATrailingHyphen() {
        String name = ArtifactName.ofFileName("a".repeat(63) + "-b.txt");
        assertEquals("a".repeat(63), name);
    }

    @ParameterizedTest
    @CsvSource({
        "panel.json, application/json",
        "change.DIFF, text/x-diff",
        "pods.yaml, application/yaml",
        "notes.md, text/markdown",
        "capture.pcap, application/octet-stream",
        "noextension, application/octet-stream"})
    void theMediaTypeFollowsTheExtension(String fileName, String mediaType) {
        assertEquals(mediaType, MediaTypes.ofFileName(fileName));
    }
}
