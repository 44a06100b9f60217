package dev.evidencestore.verify;

import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * One signature of a DSSE envelope. The key ID is an unauthenticated hint (DSSE: it must not decide anything), and
 * may be absent: then it is null.
 */
public record DsseSignature(String keyid, byte[] sig) {

    public DsseSignature {
        sig = sig.clone();
    }

    @Override
    public byte[] sig() {
        return sig.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DsseSignature && Objects.equals(keyid, ((DsseSignature) other).keyid)
                && Arrays.equals(sig, ((DsseSignature) other).sig);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sig);
    }

    @Override
    public String toString() {
        return "DsseSignature[" + keyid + ", " + Base64.getEncoder().encodeToString(sig) + "]";
    }
}
