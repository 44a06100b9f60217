package dev.evidencestore.storage;

import dev.evidencestore.EvidenceConfig;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * How the service reaches S3: endpoint, region, addressing and credentials of {@code evidence.storage.s3.*}, shared
 * by the s3 blob backend and the checkpoint publisher, which each add an HTTP client sized for their own use.
 */
final class S3Connection {

    private S3Connection() {
    }

    static S3ClientBuilder builder(EvidenceConfig.Storage.S3 s3) {
        S3ClientBuilder client = S3Client.builder()
                .region(Region.of(s3.region()))
                .credentialsProvider(credentials(s3))
                .forcePathStyle(s3.pathStyle())
                // the service sends its own SHA-256 checksums; the SDK's default CRC trailers (aws-chunked) are
                // not understood by every S3-compatible service, S3Proxy among them
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        s3.endpoint().ifPresent(client::endpointOverride);
        return client;
    }

    private static AwsCredentialsProvider credentials(EvidenceConfig.Storage.S3 s3) {
        if (s3.accessKeyId().isPresent() != s3.secretAccessKey().isPresent()) {
            throw new IllegalStateException("set both evidence.storage.s3.access-key-id and .secret-access-key, "
                    + "or neither to use the AWS SDK's default credentials provider chain");
        }
        if (s3.accessKeyId().isEmpty()) {
            return DefaultCredentialsProvider.builder().build();
        }
        return StaticCredentialsProvider.create(
                AwsBasicCredentials.create(s3.accessKeyId().get(), s3.secretAccessKey().get()));
    }
}
