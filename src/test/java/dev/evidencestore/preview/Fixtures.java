package dev.evidencestore.preview;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The demo's evidence files and the previews' own fixtures, read from the classpath. */
final class Fixtures {

    static final String DEMO = "demo/INC-1423/";
    static final String OWN = "previews/";

    private Fixtures() {
    }

    static byte[] bytes(String resource) {
        try (InputStream in = Fixtures.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Prefix whole(String resource) {
        byte[] bytes = bytes(resource);
        return new Prefix(bytes, bytes.length);
    }

    static JsonNode capture(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Subject subject(String mediaType, String source, String kind, String captureJson) {
        return new Subject(mediaType, source, kind, 0, captureJson == null ? null : capture(captureJson));
    }
}
