package dev.evidencestore.audit;

import dev.evidencestore.domain.Digest;
import org.apache.commons.codec.digest.DigestUtils;

/** Hashes as the audit chain stores them: {@code sha256:} followed by 64 lowercase hex digits. */
final class ChainHash {

    /** The {@code prevHash} of entry 1, which has no predecessor. */
    static final String GENESIS = Digest.PREFIX + "0".repeat(64);

    private ChainHash() {
    }

    static String of(byte[] bytes) {
        return Digest.of(DigestUtils.sha256(bytes)).toString();
    }
}
