package dev.evidencestore.support;

import dev.evidencestore.verify.Ed25519Keys;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.List;
import java.util.Map;

/**
 * The test profiles that several test classes share. Quarkus builds the application once per profile before any
 * test runs and starts it again for each (together 10 to 12 s a profile on two cores), so tests whose settings do
 * not get in each other's way share one profile instead of each having its own, and tests that need only the demo
 * loaded run in the default one.
 */
public final class Profiles {

    /**
     * The workspace the demo is loaded into at every test start (application.properties), which anyone may read:
     * {@code SeedInvestigationTest} builds demo/INC-1423 itself.
     */
    public static final String DEMO_WORKSPACE = "demo-loaded";
    /** Where {@link OnS3} keeps blobs in its bucket. */
    public static final String S3_PREFIX = "evidence/";
    /** Writes without a valid token that {@link ShortDeadlinesAndLowRate} allows per window, and its window. */
    public static final int UNAUTHENTICATED_RATE = 3;
    public static final long UNAUTHENTICATED_WINDOW_MILLIS = 5000;
    /** The signing key {@link RotatedKeyAndSmallBlobs} writes, a fresh one each run. */
    public static final Path ROTATED_KEY = Path.of("target/rotated-audit-key.pem");
    /** The public half of the development audit key, which every other profile signs with. */
    public static final Path DEV_AUDIT_PUBLIC_KEY = Path.of("src/main/resources/dev-keys/audit-ed25519-public.pem");

    private Profiles() {
    }

    /**
     * Blobs in a real S3 API (S3Proxy) under {@link #S3_PREFIX} with 5 MiB parts, and checkpoints published to the
     * same bucket under their own prefix.
     */
    public static class OnS3 implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(S3ProxyServer.class));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("evidence.storage.s3.prefix", S3_PREFIX, "evidence.storage.s3.part-size", "5M",
                    "evidence.audit.publish", "s3");
        }
    }

    /** The scheduled jobs at short intervals: the scrub every 2 s, checkpoints every second. */
    public static class Scheduled implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("evidence.scrub.enabled", "true", "evidence.scrub.interval", "2s",
                    "evidence.audit.checkpoint-interval", "1s");
        }
    }

    /**
     * A configured public address for pages, no citation check allowed at once, and one postgres upload at a time
     * with a short wait for its slot.
     */
    public static class PublicUrlAndSingleSlots implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("evidence.http.public-url", "https://evidence.example.com/",
                    "evidence.citations.max-concurrent-checks", "0",
                    "evidence.storage.postgres.max-concurrent-uploads", "1",
                    "evidence.storage.postgres.upload-slot-wait", "200ms");
        }
    }

    /**
     * Short deadlines for stalled transfers (2 s each, a 64 KiB send buffer so that the kernel takes bytes in steps
     * far below them) and a low rate of writes without a valid token ({@link #UNAUTHENTICATED_RATE} per
     * {@link #UNAUTHENTICATED_WINDOW_MILLIS} ms).
     */
    public static class ShortDeadlinesAndLowRate implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("evidence.http.stalled-transfer-timeout", "2s",
                    "evidence.http.header-timeout", "2s",
                    "evidence.http.body-idle-timeout", "2s",
                    "evidence.http.send-buffer-size", "64K",
                    // the test profile's own rate (application.properties) would win over one without the profile
                    "%test.evidence.audit.unauthenticated-writes.rate", String.valueOf(UNAUTHENTICATED_RATE),
                    "evidence.audit.unauthenticated-writes.window", UNAUTHENTICATED_WINDOW_MILLIS + "ms");
        }
    }

    /**
     * Sign-in for the pages against a real Keycloak ({@link KeycloakServer}), which also issues the bearer tokens
     * this profile trusts, as one provider does in production. Every sign-in test shares it: Keycloak starts once.
     */
    public static class SignIn implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(KeycloakServer.class));
        }
    }

    /**
     * A rotated audit signing key ({@link #ROTATED_KEY}, the development key listed as retired) and blobs of at
     * most 1 KiB.
     */
    public static class RotatedKeyAndSmallBlobs implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                KeyPair key = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
                Files.createDirectories(ROTATED_KEY.getParent());
                Files.writeString(ROTATED_KEY, Ed25519Keys.privatePem(key.getPrivate()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
            return Map.of("evidence.audit.signing-key-location", ROTATED_KEY.toString(),
                    "evidence.audit.trusted-keys", DEV_AUDIT_PUBLIC_KEY.toString(),
                    "evidence.blob.max-size", "1K");
        }
    }
}
