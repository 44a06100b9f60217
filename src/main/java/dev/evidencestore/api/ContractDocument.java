package dev.evidencestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The contract as packaged ({@code META-INF/openapi.yaml}, the committed {@code openapi/openapi.yaml}), read on first
 * use and then held: its YAML bytes as committed, and the same document as JSON.
 */
final class ContractDocument {

    static final String RESOURCE = "META-INF/openapi.yaml";

    private volatile byte[] yaml;
    private volatile byte[] json;

    byte[] yaml() {
        byte[] bytes = yaml;
        if (bytes == null) {
            bytes = read();
            yaml = bytes;
        }
        return bytes;
    }

    byte[] json() {
        byte[] bytes = json;
        if (bytes == null) {
            bytes = toJson(yaml());
            json = bytes;
        }
        return bytes;
    }

    private static byte[] read() {
        try (InputStream in = ContractDocument.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not packaged: the build copies openapi/openapi.yaml");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] toJson(byte[] yaml) {
        try {
            JsonNode tree = new YAMLMapper().readTree(yaml);
            return new ObjectMapper().writeValueAsBytes(tree);
        } catch (IOException e) {
            throw new UncheckedIOException("the packaged contract is not YAML", e);
        }
    }
}
