package dev.evidencestore.audit;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.AuditCheckpoint;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.security.KeyPair;
import java.time.Instant;

/**
 * Signs audit checkpoints with the configured Ed25519 key. Created at startup, so a missing or unusable key, or the
 * development key outside dev and test mode, stops the service before it accepts a single write.
 */
@Startup
@ApplicationScoped
public class AuditSigner {

    private final KeyPair key;
    private final String publicKey;

    AuditSigner(EvidenceConfig config) {
        this.key = SigningKey.load(config.audit().signingKeyLocation(), !LaunchMode.current().isDevOrTest());
        this.publicKey = Ed25519.base64(key.getPublic());
    }

    AuditCheckpoint sign(long chainLength, String headHash, Instant at) {
        String signature = Ed25519.sign(key.getPrivate(), CheckpointPayload.of(chainLength, headHash, at));
        return new AuditCheckpoint(chainLength, headHash, at, publicKey, signature);
    }
}
