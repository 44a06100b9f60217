package dev.evidencestore.api;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Violations;

/** Optional body of a verification: the digest a reviewer computed locally. */
public record VerificationRequest(String digest) {

    static Digest claimedDigest(VerificationRequest request) {
        if (request == null || request.digest() == null) {
            return null;
        }
        Violations v = new Violations();
        Digest claimed = v.parse("digest", request.digest(), Digest::parse);
        v.throwIfAny();
        return claimed;
    }
}
