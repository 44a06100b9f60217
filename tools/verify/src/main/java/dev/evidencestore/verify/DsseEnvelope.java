package dev.evidencestore.verify;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A DSSE envelope: a payload, its type, and Ed25519 signatures over their {@link Dsse#pae PAE}. Its JSON form is
 * {@code {"payload":"<b64>","payloadType":"…","signatures":[{"keyid":"…","sig":"<b64>"}]}}.
 */
public final class DsseEnvelope {

    private final String payloadType;
    private final byte[] payload;
    private final List<DsseSignature> signatures;

    public DsseEnvelope(String payloadType, byte[] payload, List<DsseSignature> signatures) {
        if (payloadType == null || payloadType.isEmpty()) {
            throw new IllegalArgumentException("a DSSE envelope needs a payload type");
        }
        this.payloadType = payloadType;
        this.payload = payload.clone();
        this.signatures = List.copyOf(signatures);
    }

    /** The envelope of this payload with one signature; {@code keyid} may be null. */
    public static DsseEnvelope sign(String payloadType, byte[] payload, String keyid, PrivateKey key) {
        return new DsseEnvelope(payloadType, payload, List.of()).withSignature(keyid, key);
    }

    /** This envelope with one more signature. */
    public DsseEnvelope withSignature(String keyid, PrivateKey key) {
        List<DsseSignature> more = new ArrayList<>(signatures);
        more.add(new DsseSignature(keyid, Ed25519Keys.sign(key, pae())));
        return new DsseEnvelope(payloadType, payload, more);
    }

    /**
     * Whether one of the signatures is this key's over the PAE. Every signature is tried, whatever its key ID says:
     * the key ID is not authenticated.
     */
    public boolean verify(PublicKey key) {
        byte[] signed = pae();
        return signatures.stream().anyMatch(signature -> Ed25519Keys.verify(key, signed, signature.sig()));
    }

    /** The bytes every signature covers. */
    public byte[] pae() {
        return Dsse.pae(payloadType, payload);
    }

    public String payloadType() {
        return payloadType;
    }

    public byte[] payload() {
        return payload.clone();
    }

    public List<DsseSignature> signatures() {
        return signatures;
    }

    /** The JSON form, standard base64, a key ID only where there is one. */
    public String toJson() {
        List<Object> sigs = new ArrayList<>();
        for (DsseSignature signature : signatures) {
            Map<String, Object> sig = new LinkedHashMap<>();
            if (signature.keyid() != null) {
                sig.put("keyid", signature.keyid());
            }
            sig.put("sig", Base64.getEncoder().encodeToString(signature.sig()));
            sigs.add(sig);
        }
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("payload", Base64.getEncoder().encodeToString(payload));
        envelope.put("payloadType", payloadType);
        envelope.put("signatures", sigs);
        return Json.write(envelope);
    }

    /**
     * Reads the JSON form strictly: exactly the envelope's members, at least one signature, base64 that decodes
     * (standard or URL-safe, as DSSE has verifiers accept both).
     */
    public static DsseEnvelope parse(String json) {
        Map<String, Object> envelope = Json.object(Json.parse(json), "the DSSE envelope");
        Json.requireMembers(envelope, Set.of("payload", "payloadType", "signatures"), Set.of(), "the DSSE envelope");
        byte[] payload = base64(Json.string(envelope.get("payload"), "payload"), "payload");
        String payloadType = Json.string(envelope.get("payloadType"), "payloadType");
        if (payloadType.isEmpty()) {
            throw new MalformedInput("the DSSE envelope's payloadType is empty");
        }
        List<Object> sigs = Json.array(envelope.get("signatures"), "signatures");
        if (sigs.isEmpty()) {
            throw new MalformedInput("the DSSE envelope has no signatures");
        }
        List<DsseSignature> signatures = new ArrayList<>();
        for (int i = 0; i < sigs.size(); i++) {
            String what = "signature " + i;
            Map<String, Object> sig = Json.object(sigs.get(i), what);
            Json.requireMembers(sig, Set.of("sig"), Set.of("keyid"), what);
            String keyid = sig.containsKey("keyid") ? Json.string(sig.get("keyid"), what + " keyid") : null;
            signatures.add(new DsseSignature(keyid, base64(Json.string(sig.get("sig"), what + " sig"), what)));
        }
        return new DsseEnvelope(payloadType, payload, signatures);
    }

    private static byte[] base64(String text, String what) {
        try {
            boolean urlSafe = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
            return (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput("the DSSE envelope's " + what + " is not valid base64", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DsseEnvelope && payloadType.equals(((DsseEnvelope) other).payloadType)
                && Arrays.equals(payload, ((DsseEnvelope) other).payload)
                && signatures.equals(((DsseEnvelope) other).signatures);
    }

    @Override
    public int hashCode() {
        return payloadType.hashCode() * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return toJson();
    }
}
