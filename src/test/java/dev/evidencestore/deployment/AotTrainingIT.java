package dev.evidencestore.deployment;

import java.nio.file.Path;
import java.util.Map;

/**
 * The AOT cache of the filesystem and postgres backends, {@code app.aot}: the training run on the filesystem backend
 * (the postgres backend's classes are the service's own and JDBC's, which every backend loads).
 */
class AotTrainingIT extends AotTrainingRun {

    AotTrainingIT() {
        super("aot-training", "app.aot");
    }

    @Override
    Map<String, String> backend() {
        return Map.of("evidence.storage.backend", "filesystem",
                "evidence.storage.filesystem.path", Path.of("target/it-blobs-aot").toAbsolutePath().toString());
    }
}
