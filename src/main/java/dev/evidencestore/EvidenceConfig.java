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
import java.util.OptionalInt;
import java.util.Set;

/** Every setting of the service, with its default. Production values come from environment variables. */
@ConfigMapping(prefix = "evidence")
public interface EvidenceConfig {

    Blob blob();

    Batch batch();

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

    Citations citations();

    Preview preview();

    Web web();

    interface Web {
        SignIn signIn();

        /**
         * Sign-in for the pages through the organisation's OpenID Connect provider (the authorization-code flow of
         * quarkus-oidc, whose {@code quarkus.oidc.*} settings name the provider and this service's client). Off by
         * default: the pages then take bearer tokens only, as the API always does.
         */
        interface SignIn {
            @WithDefault("false")
            boolean enabled();
        }
    }

    interface Preview {
        /**
         * The most bytes of a blob an artifact page reads to show its evidence. A larger blob is previewed from its
         * first bytes and says so; the preview never holds more than this of it in memory.
         */
        @WithDefault("2M")
        MemorySize maxBytes();

        /**
         * Previews read and parsed at once on this instance. Parsing a large JSON snapshot takes several times its
         * size in heap for a moment; beyond this many, a page shows a note in place of the preview at once.
         */
        @WithDefault("4")
        int maxConcurrent();
    }

    interface Citations {
        /**
         * The distinct artifact and finding IDs one citation check may look up; a text citing more is refused with
         * 413 text-too-large. Each distinct ID is one row to look up and one entry in the answer, so this bounds both.
         */
        @WithDefault("2000")
        int maxDistinctIds();

        /**
         * Citation checks run at once on this instance. A check of the largest text takes a few megabytes of heap
         * and a tenth of a second of CPU or more; beyond this many, a check is answered 503 service-busy with
         * Retry-After at once, so that checks cannot crowd out everything else on the instance.
         */
        @WithDefault("2")
        int maxConcurrentChecks();
    }

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
         * Incidents' row IDs kept by workspace and key after a committed read (about 100 bytes each): an incident is
         * never renamed or removed, so binding an artifact needs no query for its incident.
         */
        @WithDefault("10000")
        long incidents();

        /**
         * Blobs' sizes kept by uploader after a committed upload (about 200 bytes each): an upload's record never
         * changes, so binding a blob right after uploading it needs no query to see it.
         */
        @WithDefault("10000")
        long uploads();

        /**
         * Bearer tokens kept after their signature was checked, each until it expires: a repeat of the same token
         * needs no second RSA verification.
         */
        @WithDefault("1000")
        long tokens();

        /**
         * Memory for small blobs kept after their first whole read ({@code SmallBlobCache}), shared by every backend:
         * their bytes never change, so such reads need no database query and no S3 request. 0 keeps none.
         */
        @WithDefault("16M")
        MemorySize smallBlobs();

        /** The largest blob kept there. */
        @WithDefault("64K")
        MemorySize smallBlobMaxSize();
    }

    interface Http {
        /**
         * Replaced by {@code evidence.http.admission.requests}, which it sets when given, so that older
         * configurations keep their bound.
         */
        Optional<Integer> maxConcurrentRequests();

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

        /**
         * The largest JSON request body; a larger one is refused with 413 body-too-large, by its Content-Length
         * before it is read, or as soon as a body without one grows past it. Far above any real request (a
         * postmortem's prose is tens of kilobytes), and the same as the citation check's limit on its text.
         */
        @WithDefault("1M")
        MemorySize maxJsonBody();

        /**
         * The proxies (CIDRs such as {@code 10.0.0.0/8} or {@code 2001:db8::/32}, or single addresses) whose
         * {@code Forwarded} and {@code X-Forwarded-For} headers name the client. None by default: the headers are
         * ignored and a request's client is its direct peer, since anyone can send such headers.
         */
        Optional<List<String>> trustedProxies();

        Admission admission();

        /**
         * What a request may hold while it is handled, counted per instance. Beyond any of them a request is answered
         * 503 service-busy with Retry-After at once, before it takes a worker thread, a database connection or its
         * body's memory; health, metrics and the OpenAPI document are not counted.
         */
        interface Admission {
            /**
             * Streaming downloads at once (blob bytes, artifact content, evidence bundles): slow ones, however
             * many, take only these slots, never those of writes, metadata reads or health checks. Each holds up
             * to about 1.3 MiB of heap (a 256 KiB output buffer and a 1 MiB PostgreSQL chunk, or three 256 KiB
             * blocks read ahead from a file).
             */
            @WithDefault("16")
            int downloads();

            /** Uploads of blob bytes streaming at once. */
            @WithDefault("8")
            int uploads();

            /**
             * Every other request at once: metadata reads, JSON writes, the citation check, the pages. As many as
             * the connection pool has connections: one more would only wait for a connection, and on two cores 64 at
             * once kept {@code /q/health/live} waiting over 2 s (the fault suite's overload case).
             */
            @WithDefault("16")
            int requests();

            /**
             * Requests at once from one client address (its direct peer, or what a trusted proxy forwarded), all
             * kinds together; checked before authentication, so that one address cannot take every slot.
             */
            @WithDefault("16")
            int perClient();

            /** Requests at once of one principal, after authentication, so that one token cannot take every slot. */
            @WithDefault("8")
            int perPrincipal();

            /**
             * The heap that request bodies may hold at once, judged before a body is read: a JSON body counts four
             * times its Content-Length (its text as parsed, the entity made from it, the answer), five times with an
             * Idempotency-Key (whose fingerprint reads the body whole first), and {@code evidence.http.max-json-body}
             * when it declares no length; an upload counts its store's buffer (up to its Content-Length) and two
             * network chunks of 256 KiB. With {@code -Xmx128m} about 60 MiB is the service's own; see
             * docs/operations.md, "Limits".
             */
            @WithDefault("32M")
            MemorySize bodyMemory();

            /**
             * How late an event loop may be (not having run its 10 ms timer for this long) before it refuses new
             * requests with 503 service-busy, until it has caught up; health, metrics and the OpenAPI document are
             * always answered. 0 turns it off. Under the fault suite's burst on two cores the loops fell 2 s behind
             * without it, 0.8 s with it; at full load from 16 clients they stay within 0.15 s.
             */
            @WithDefault("250ms")
            Duration maxEventLoopLag();
        }
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

        /** The limit on unauthenticated writes, which keeps a flood of them from growing the log without bound. */
        UnauthenticatedWrites unauthenticatedWrites();

        /**
         * Entries of refused requests (401, 403, 404, 409, ...) waiting to be written: they are queued and written
         * in batches, so a refusal needs no database connection of its own, and its answer waits for its entry at
         * most {@code evidence.audit.refusal-wait}. When this many wait already, for instance while every database
         * connection is taken, a refusal is counted in its client's aggregate entry instead (metric
         * {@code evidence.audit.refusals.folded}). At most this many entries are held in memory (each at most
         * 10 KiB), so the queue is bounded too.
         */
        @WithDefault("1000")
        int refusalQueue();

        /**
         * How long a refusal's answer waits for its entry to be written: a client that got its answer then finds the
         * entry in what it reads next. When the database is slower, for instance while every connection is taken,
         * the answer leaves anyway, and the entry is written from the queue once a connection is free.
         */
        @WithDefault("1s")
        Duration refusalWait();

        interface UnauthenticatedWrites {
            /**
             * Write attempts without a valid bearer token (none, or one that fails verification) answered as usual
             * per client address and window; beyond it they are answered 429 too-many-requests with Retry-After
             * until the window ends, and recorded as one aggregate entry per address and window. No client writes
             * without a token, so ten a minute leave a misconfigured client ten answers that say why (401) while a
             * flood costs at most eleven entries a minute per address. Counted per instance.
             */
            @WithDefault("10")
            int rate();

            /** The window the rate counts in; windows are aligned to the epoch and aggregates written at their end. */
            @WithDefault("1m")
            Duration window();

            /**
             * Client addresses counted per window. A new address beyond them is refused as beyond its rate (and
             * recorded in one aggregate of all such addresses, client {@code *}), so that a flood from many
             * addresses holds no more memory than this.
             */
            @WithDefault("10000")
            int maxClients();
        }

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

    /** The batch upload: many artifacts in one tar body, each checked and bound as if uploaded alone. */
    interface Batch {
        /** Most items one batch may declare in its batch.json; more is refused (413) before any blob is read. */
        @WithDefault("1000")
        int maxItems();

        /** Most blob bytes one batch may carry, all entries together; the entry that goes beyond is refused (413). */
        @WithDefault("2G")
        MemorySize maxBytes();

        /** Largest batch.json; a bigger one is refused (413) unread. */
        @WithDefault("1M")
        MemorySize maxManifest();

        /**
         * Small items (64 KiB at most) of one batch whose bytes are made durable at once, each on its own thread,
         * while the next entries are read: their waits on the store overlap. 1 (or less) stores one item at a time.
         * Unset: the backend's own number ({@code BlobStore.smallWritesAtOnce}: 16 on postgres, 8 otherwise).
         */
        OptionalInt itemsInFlight();

        /**
         * Stored items of one batch bound in one transaction, each with its own audit entry: one commit and one
         * round trip per statement for this many items. 1 (or less) binds each item in a transaction of its own. A
         * failure of the database undoes one group, which a retry of the batch binds again. Groups of 256 made batches
         * of 1,000 about 12% faster than groups of 64 on filesystem and postgres (docs/operations.md).
         */
        @WithDefault("256")
        int itemsPerTransaction();
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
             * Uploads longer than one chunk streaming at once; each holds a database connection until it commits, so
             * more would starve every other request of the pool. Beyond it, such uploads get 503 with Retry-After.
             * Shorter uploads hold no connection of their own: they are committed a group at a time.
             */
            @WithDefault("8")
            int maxConcurrentUploads();

            /** How long an upload waits for a free slot before it is turned away. */
            @WithDefault("5s")
            Duration uploadSlotWait();

            /**
             * Reads streaming their chunks at once, each holding a database connection until it ends (a download its
             * client stopped reading, until it is cut off as stalled). Beyond it, reads query slice by slice.
             */
            @WithDefault("4")
            int maxStreamingReads();
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

            /**
             * Parts of one upload sent at once while it reads and hashes the next; each takes a buffer of
             * {@code send-ahead-memory}, so an upload holds up to this many parts more than its first.
             */
            @WithDefault("2")
            int partsInFlight();

            /**
             * Heap all uploads share for the parts they hold beyond their first (which admission's body-memory
             * counts), in whole parts. Taken only when free, never waited for: an upload that finds none sends its
             * parts one at a time; {@code 0} sends every upload's parts one at a time.
             */
            @WithDefault("16M")
            MemorySize sendAheadMemory();

            /**
             * Whether the store refuses a PutObject with {@code If-None-Match: *} where the key exists, as AWS S3
             * (since August 2024), MinIO, Cloudflare R2 and S3Proxy 4 do: a blob shorter than a part then goes as
             * that one request. Left false, it is looked up first, since a store that ignores the condition would
             * write a stored blob again (with the same bytes, which it checks against their SHA-256).
             */
            @WithDefault("false")
            boolean conditionalWritesHonoured();

            /** How long a multipart upload may go without a new part before it counts as abandoned and is aborted. */
            @WithDefault("1h")
            Duration abandonedUploadAfter();
        }
    }
}
