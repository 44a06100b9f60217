package dev.evidencestore.deployment;

import java.nio.file.Path;
import java.util.Map;

/** The blob store both instances share. */
final class SharedBlobStore {

    private SharedBlobStore() {
    }

    static Map<String, String> settings() {
        return Map.of("evidence.storage.backend", "filesystem",
                "evidence.storage.filesystem.path", Path.of("target/it-blobs").toAbsolutePath().toString());
    }
}
