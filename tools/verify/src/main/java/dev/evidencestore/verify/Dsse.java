package dev.evidencestore.verify;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The pre-authentication encoding of DSSE v1: what is signed is never the payload alone but
 * {@code "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body}, lengths in ASCII decimal, so a signature over one
 * payload type can never be replayed as a signature over another.
 */
public final class Dsse {

    private Dsse() {
    }

    public static byte[] pae(String payloadType, byte[] payload) {
        byte[] type = payloadType.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 + type.length + payload.length);
        out.writeBytes(("DSSEv1 " + type.length + " ").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(type);
        out.writeBytes((" " + payload.length + " ").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(payload);
        return out.toByteArray();
    }
}
