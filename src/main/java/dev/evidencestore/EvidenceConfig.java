package dev.evidencestore;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/** Every setting of the service, with its default. Production values come from environment variables. */
@ConfigMapping(prefix = "evidence")
public interface EvidenceConfig {

    Blob blob();

    Storage storage();

    /** Workspaces whose records anyone may read without a token, as for a public demo; writes always need one. */
    Optional<Set<String>> publicReadWorkspaces();

    Review review();

    Audit audit();

    Scrub scrub();

    interface Review {
        /** Whether a reviewer is kept from accepting what they created, or verified only themselves. */
        @WithDefault("true")
        boolean fourEyes();
    }

    interface Audit {
        /** PEM (PKCS#8) Ed25519 private key that signs audit checkpoints. */
        Optional<String> signingKeyLocation();

        /** How often a signed checkpoint of the audit chain is written. */
        @WithDefault("1h")
        Duration checkpointInterval();
    }

    interface Scrub {
        /** Whether this instance takes its turn at scrubbing; instances that do take turns (one scrubs at a time). */
        @WithDefault("true")
        boolean enabled();

        /** How often a pass re-hashes every stored blob, so bit rot is found before anyone relies on the bytes. */
        @WithDefault("24h")
        Duration interval();

        /** Bytes a pass reads per second at most, so that scrubbing never starves uploads and downloads. */
        @WithDefault("64M")
        MemorySize rate();
    }

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

            /** How long an upload's temp file may sit untouched before it counts as abandoned and is removed. */
            @WithDefault("1h")
            Duration abandonedUploadAfter();
        }

        interface Postgres {
            /** Size of one stored chunk row; a download holds at most one chunk in memory. */
            @WithDefault("1M")
            MemorySize chunkSize();

            /**
             * Uploads streaming at once; each holds a database connection until it commits, so more would starve
             * every other request of the pool. Beyond it, uploads get 503 with Retry-After.
             */
            @WithDefault("8")
            int maxConcurrentUploads();

            /** How long an upload waits for a free slot before it is turned away. */
            @WithDefault("5s")
            Duration uploadSlotWait();
        }
    }
}
