package dev.evidencestore.preview;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PreviewsTest {

    private final Previews previews = new Previews();

    @Test
    void eachDemoFileGetsItsRecogniser() {
        assertEquals("grafana/1", show("application/json", "grafana", "snapshot", "grafana-checkout.json").recogniser());
        assertEquals("kubernetes/1", show("application/json", "kubernetes", "snapshot", "kubernetes-workers.json")
                .recogniser());
        assertEquals("diff/1", show("text/x-diff", "github", "snapshot", "github-deployment.diff").recogniser());
        assertEquals("source-unavailable/1", show("application/json", "intercom", "source-unavailable",
                "intercom-readiness.json").recogniser());
    }

    @Test
    void bytesARecogniserCannotReadFallBackToTheGenericPreviewWithTheReason() {
        Previews.Shown shown = show("application/json", "grafana", "snapshot", "kubernetes-workers.json");
        assertEquals("generic/1", shown.recogniser());
        assertEquals("a Grafana snapshot has a dashboard with panels", shown.fallback());
        JsonPreview json = assertInstanceOf(JsonPreview.class, shown.preview());
        assertTrue(json.pretty().startsWith("{\n  \"source\" : \"kubernetes\","), json.pretty());
    }

    @Test
    void aPrefixOfJsonIsShownAsTextUpToItsLastWholeLine() {
        byte[] demo = Fixtures.bytes(Fixtures.DEMO + "kubernetes-workers.json");
        Prefix prefix = new Prefix(Arrays.copyOf(demo, 100), demo.length);
        Previews.Shown shown = previews.show(
                new Subject("application/json", "kubernetes", "snapshot", demo.length, null), prefix);
        assertEquals("only the first 100 bytes were read, and JSON is read whole", shown.fallback());
        TextPreview text = assertInstanceOf(TextPreview.class, shown.preview());
        String expected = new String(demo, 0, 100, StandardCharsets.UTF_8);
        expected = expected.substring(0, expected.lastIndexOf('\n') + 1);
        assertEquals(List.of(expected.split("\n", -1)), text.lines());
    }

    @Test
    void imagesAreNotReadTextHasLinesAndUnknownBytesHaveNoPreview() {
        Subject png = new Subject("image/png", "grafana", "snapshot", 10, null);
        assertFalse(previews.reads(png), "the browser loads an image from its content URL");
        assertInstanceOf(ImagePreview.class, previews.show(png, new Prefix(new byte[0], 10)).preview());
        byte[] log = "line one\nline two\n".getBytes();
        TextPreview text = assertInstanceOf(TextPreview.class, previews.show(
                new Subject("application/octet-stream", "shell", "snapshot", log.length, null),
                new Prefix(log, log.length)).preview());
        assertEquals(List.of("line one", "line two", ""), text.lines());
        byte[] binary = {0x50, 0x4b, 0x03, 0x04, 0x00, 0x01};
        Previews.Shown zip = previews.show(new Subject("application/zip", "", "snapshot", 6, null),
                new Prefix(binary, binary.length));
        assertEquals(new NoPreview("application/zip", Facts.NONE), zip.preview());
        assertNull(zip.fallback());
    }

    private Previews.Shown show(String mediaType, String source, String kind, String file) {
        Prefix prefix = Fixtures.whole(Fixtures.DEMO + file);
        return previews.show(new Subject(mediaType, source, kind, prefix.total(), null), prefix);
    }
}
