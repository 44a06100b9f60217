package dev.evidencestore;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;

/** Every setting of the service, with its default. Production values come from environment variables. */
@ConfigMapping(prefix = "evidence")
public interface EvidenceConfig {

    Blob blob();

    Storage storage();

    interface Blob {
        /** Largest blob accepted; bigger uploads are refused with 413 and nothing is stored. */
        @WithDefault("1G")
        MemorySize maxSize();
    }

    interface Storage {
        /** Where blob bytes live. */
        @WithDefault("postgres")
        Backend backend();

        Filesystem filesystem();

        Postgres postgres();

        enum Backend { POSTGRES, FILESYSTEM }

        interface Filesystem {
            /** Root directory of the filesystem backend; created when missing. */
            @WithDefault("data/blobs")
            Path path();
        }

        interface Postgres {
            /** Size of one stored chunk row; a download holds at most one chunk in memory. */
            @WithDefault("1M")
            MemorySize chunkSize();
        }
    }
}
