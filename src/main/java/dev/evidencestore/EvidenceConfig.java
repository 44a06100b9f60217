package dev.evidencestore;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

    Http http();

    Audit audit();

    Idempotency idempotency();

    Scrub scrub();

    Cache cache();

    Tokens tokens();

    interface Tokens {
        /**
         * The longest a bearer token may be issued for ({@code exp} minus {@code iat}); a token issued for longer
         * is refused, so that a leaked one cannot be used for years.
         */
        @WithDefault("24h")
        Duration maxLifetime();

        /** How far ahead of this instance's clock a token's {@code iat} may be, for clocks that disagree a little. */
        @WithDefault("60s")
        Duration clockSkew();
    }

    interface Cache {
        /**
         * Artifacts kept in memory after their first read (about 1 KB each): they never change, so reads of them
         * need no database query.
         */
        @WithDefault("10000")
        long artifacts();

        /**
         * Bearer tokens kept after their signature was checked, each until it expires: a repeat of the same token
         * needs no second RSA verification.
         */
        @WithDefault("1000")
        long tokens();
    }

    interface Http {
        /**
         * Requests handled at once (health, metrics and the OpenAPI document not counted). Beyond it a request is
         * answered 503 service-busy with Retry-After at once, instead of queueing for threads and database
         * connections until everything times out.
         */
        @WithDefault("64")
        int maxConcurrentRequests();

        /**
         * The address people reach the service at, such as {@code https://evidence.example.com}: the commands the
         * pages print download from it. Never taken from a request's Host header, which the client chooses; without
         * it, a command reads the address from {@code $EVIDENCE_STORE}.
         */
        Optional<URI> publicUrl();

        /**
         * How long a response may wait with none of its bytes accepted by the client before the connection is
         * closed: a download whose client stopped reading ends, and gives back its request slot, its worker thread
         * and its buffers. A download that progresses, however slowly, is never cut.
         */
        @WithDefault("30s")
        Duration stalledTransferTimeout();

        /**
         * How long a client has to send a request's headers, from the connection's start for its first request and
         * from the first byte of each later one; a client trickling them is disconnected.
         */
        @WithDefault("10s")
        Duration headerTimeout();

        /**
         * How long a request body may send nothing while the service waits for it before the connection is closed;
         * time the service itself holds the body back does not count.
         */
        @WithDefault("30s")
        Duration bodyIdleTimeout();

        /**
         * The kernel's send buffer of each connection; by default the kernel sizes it (up to net.ipv4.tcp_wmem's
         * maximum). The service can write again only once about a third of it has drained, so a download is seen
         * stalled when its client reads less than a third of this buffer within stalled-transfer-timeout; a smaller
         * buffer tells a slow reader from a stalled one sooner, and caps a connection at this size per round trip.
         */
        Optional<MemorySize> sendBufferSize();
    }

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

        /**
         * The log's origin, the first line of every checkpoint and the name of its keys, such as
         * {@code evidence.example.com/audit}; required, and never taken from a request.
         */
        Optional<String> origin();

        /**
         * The public keys of earlier signing keys (PEM files, or PEM inline), retired by a rotation: checkpoints they
         * signed still verify.
         */
        Optional<List<String>> trustedKeys();

        /** Where each new checkpoint is also published, outside the database. */
        Publish publish();

        interface Publish {
            /**
             * {@code evidence.audit.publish}: {@code none}, {@code directory} or {@code s3}, whatever the blob
             * backend. None by default, since only an operator knows a place the database cannot write; without one,
             * whoever can rewrite the database can rewrite the log and its checkpoints unnoticed.
             */
            @WithParentName
            @WithDefault("none")
            Target target();

            /** The directory of {@code directory}: created when missing; better a volume the database cannot reach. */
            Optional<Path> directory();

            S3 s3();

            enum Target { NONE, DIRECTORY, S3 }

            /** Connected with the client settings of {@code evidence.storage.s3.*}, whatever the blob backend. */
            interface S3 {
                /** The bucket, best one with S3 Object Lock; the blob backend's bucket when absent. */
                Optional<String> bucket();

                /** Put before every checkpoint's name; keeps them apart from blobs in a shared bucket. */
                @WithDefault("checkpoints/")
                String prefix();
            }
        }
    }

    interface Idempotency {
        /** How long a completed create is kept for retries with its Idempotency-Key; afterwards the key is free. */
        @WithDefault("24h")
        Duration retention();

        /**
         * How long a request may hold its key before it counts as abandoned (its instance died mid-request) and a
         * retry may run in its place. Far above any create but a slow large upload.
         */
        @WithDefault("2m")
        Duration abandonedAfter();
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

        /** How often uploads abandoned by a crash are looked for (and how long after start the first look is). */
        @WithDefault("10m")
        Duration sweepInterval();

        Filesystem filesystem();

        Postgres postgres();

        S3 s3();

        enum Backend { POSTGRES, FILESYSTEM, S3 }

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

        interface S3 {
            /** Bucket that holds the blobs; it must exist. Required for the s3 backend. */
            Optional<String> bucket();

            /** Put before every key, e.g. {@code evidence/}; none by default. */
            Optional<String> prefix();

            /** Endpoint of an S3-compatible service; AWS's endpoint for the region when absent. */
            Optional<URI> endpoint();

            @WithDefault("us-east-1")
            String region();

            /** Address the bucket in the path rather than the host name, as most S3-compatible services need. */
            @WithDefault("false")
            boolean pathStyle();

            /** Static credentials; when both are absent, the AWS SDK's default credentials provider chain. */
            Optional<String> accessKeyId();

            Optional<String> secretAccessKey();

            /**
             * Size of one multipart upload part, and so the most memory one upload holds; smaller blobs are sent in
             * one request. S3 needs at least 5M, and allows 10,000 parts, so it also bounds the largest blob.
             */
            @WithDefault("8M")
            MemorySize partSize();

            /** How long a multipart upload may go without a new part before it counts as abandoned and is aborted. */
            @WithDefault("1h")
            Duration abandonedUploadAfter();
        }
    }
}
