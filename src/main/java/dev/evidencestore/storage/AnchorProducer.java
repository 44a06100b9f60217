package dev.evidencestore.storage;

import dev.evidencestore.EvidenceConfig;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import org.jboss.logging.Logger;
import software.amazon.awssdk.http.apache.ApacheHttpClient;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;

/**
 * Chooses where checkpoints are published, by {@code evidence.audit.publish}, whatever the blob backend: the
 * postgres backend keeps everything in the database, so it needs an anchor outside it most of all.
 */
@ApplicationScoped
public class AnchorProducer {

    private static final Logger LOG = Logger.getLogger(AnchorProducer.class);

    /** Publishing runs after a checkpoint commits, in the thread that committed it: each request is bounded. */
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);
    private static final int MAX_CONNECTIONS = 4;

    /** At startup, so that a setting that names no usable place stops the service rather than its first publish. */
    @Produces
    @Startup
    @ApplicationScoped
    Anchor anchor(EvidenceConfig config) {
        EvidenceConfig.Audit.Publish publish = config.audit().publish();
        return switch (publish.target()) {
            case NONE -> none();
            case DIRECTORY -> {
                DirectoryAnchor anchor = new DirectoryAnchor(publish.directory().orElseThrow(() ->
                        new IllegalStateException("evidence.audit.publish=directory needs "
                                + "evidence.audit.publish.directory (EVIDENCE_AUDIT_PUBLISH_DIRECTORY)")));
                LOG.infof("audit checkpoints are published to %s", anchor.locate(""));
                yield anchor;
            }
            case S3 -> s3(publish.s3(), config.storage().s3());
        };
    }

    void close(@Disposes Anchor anchor) throws IOException {
        if (anchor instanceof Closeable closeable) {
            closeable.close();
        }
    }

    private static Anchor none() {
        if (LaunchMode.current() == LaunchMode.NORMAL) {
            LOG.warn("evidence.audit.publish is none: audit checkpoints are kept only in the database, so whoever "
                    + "can rewrite the database can rewrite the log and its checkpoints unnoticed; publish them to "
                    + "a directory or an S3 bucket the database cannot write (docs/integrity.md)");
        }
        return Anchor.NONE;
    }

    private static S3Anchor s3(EvidenceConfig.Audit.Publish.S3 publish, EvidenceConfig.Storage.S3 connection) {
        String bucket = publish.bucket().or(connection::bucket).orElseThrow(() -> new IllegalStateException(
                "evidence.audit.publish=s3 needs evidence.audit.publish.s3.bucket (EVIDENCE_AUDIT_PUBLISH_S3_BUCKET) "
                        + "or evidence.storage.s3.bucket"));
        S3Anchor anchor = new S3Anchor(S3Connection.builder(connection)
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(MAX_CONNECTIONS))
                .overrideConfiguration(c -> c.apiCallAttemptTimeout(ATTEMPT_TIMEOUT).apiCallTimeout(CALL_TIMEOUT))
                .build(), bucket, publish.prefix());
        LOG.infof("audit checkpoints are published to %s", anchor.locate(""));
        return anchor;
    }
}
