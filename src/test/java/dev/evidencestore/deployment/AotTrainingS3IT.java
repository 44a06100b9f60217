package dev.evidencestore.deployment;

import dev.evidencestore.support.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;

import java.util.Map;

/**
 * The AOT cache of the s3 backend, {@code app-s3.aot}: the training run against S3Proxy. The AWS SDK and its HTTP
 * client are about 2,700 classes that the filesystem and postgres backends never load; outside a cache they cost the
 * s3 backend's memory their metaspace (measured: peak RSS 342 and 343 MB with this cache against 353 MB with
 * app.aot over bench/run.sh's large and small ingests).
 */
class AotTrainingS3IT extends AotTrainingRun {

    private S3ProxyServer s3;

    AotTrainingS3IT() {
        super("aot-training-s3", "app-s3.aot");
    }

    @Override
    Map<String, String> backend() {
        s3 = S3ProxyServer.fresh("aot-training");
        return s3.serviceSettings();
    }

    @AfterAll
    void stopS3() {
        if (s3 != null) {
            s3.close();
        }
    }
}
