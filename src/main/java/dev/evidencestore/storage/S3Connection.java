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
import software.amazon.awssdk.services.s3.S3Configuration;

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
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                // over plain http the SDK must sign the payload, by default as aws-chunked with a signature per
                // 128 KiB, which S3Proxy decodes a byte at a time; one signature of the whole part costs one SHA-256
                // pass over bytes held in memory anyway. Over https payloads go unsigned, and this changes nothing
                .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build());
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
