package dev.evidencestore.verify;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DSSE v1 with the test vector of its protocol.md, and Ed25519 envelopes. */
class DsseTest {

    private static final String TYPE = "http://example.com/HelloWorld";
    private static final byte[] BODY = "hello world".getBytes(StandardCharsets.UTF_8);
    /** The spec's envelope, signed with ECDSA P-256 over the PAE. */
    private static final String SPEC_ENVELOPE = "{\"payload\": \"aGVsbG8gd29ybGQ=\",\n"
            + " \"payloadType\": \"http://example.com/HelloWorld\",\n"
            + " \"signatures\": [{\"sig\": \"A3JqsQGtVsJ2O2xqrI5IcnXip5GToJ3F+FnZ+O88SjtR6rDAajabZKciJTfUiHqJPcIAriEGAHTV"
            + "eCUjW2JIZA==\"}]}";

    @Test
    void thePaeIsTheSpecsExample() {
        assertEquals("DSSEv1 29 http://example.com/HelloWorld 11 hello world",
                new String(Dsse.pae(TYPE, BODY), StandardCharsets.UTF_8));
        assertEquals("DSSEv1 0  0 ", new String(Dsse.pae("", new byte[0]), StandardCharsets.UTF_8));
        // lengths count bytes, not characters
        assertEquals("DSSEv1 2 \u00e9 1 x", new String(Dsse.pae("\u00e9", new byte[] {'x'}), StandardCharsets.UTF_8));
    }

    /** The spec's signature is over our PAE bytes: the JDK verifies it with the spec's P-256 public key. */
    @Test
    void theSpecsSignatureCoversThePaeBuiltHere() throws Exception {
        DsseEnvelope envelope = DsseEnvelope.parse(SPEC_ENVELOPE);
        assertEquals(TYPE, envelope.payloadType());
        assertArrayEquals(BODY, envelope.payload());
        assertNull(envelope.signatures().get(0).keyid());
        AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
        parameters.init(new ECGenParameterSpec("secp256r1"));
        PublicKey key = KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(new ECPoint(
                new BigInteger("46950820868899156662930047687818585632848591499744589407958293238635476079160"),
                new BigInteger("5640078356564379163099075877009565129882514886557779369047442380624545832820")),
                parameters.getParameterSpec(ECParameterSpec.class)));
        Signature ecdsa = Signature.getInstance("SHA256withECDSAinP1363Format");
        ecdsa.initVerify(key);
        ecdsa.update(envelope.pae());
        assertTrue(ecdsa.verify(envelope.signatures().get(0).sig()));
    }

    @Test
    void anEd25519EnvelopeVerifiesAndReadsBack() {
        PrivateKey key = SignedNoteTest.peterPrivateKey();
        PublicKey publicKey = NoteKey.parse(SignedNoteTest.PETER_KEY).publicKey();
        DsseEnvelope envelope = DsseEnvelope.sign("application/vnd.in-toto+json", BODY, "peter", key);
        assertTrue(envelope.verify(publicKey));
        assertEquals(envelope, DsseEnvelope.parse(envelope.toJson()));
        Map<String, Object> json = Json.object(Json.parse(envelope.toJson()), "envelope");
        assertEquals(List.of("payload", "payloadType", "signatures"), List.copyOf(json.keySet()));
        assertEquals("aGVsbG8gd29ybGQ=", json.get("payload"));
        assertTrue(Ed25519Keys.verify(publicKey, Dsse.pae("application/vnd.in-toto+json", BODY),
                envelope.signatures().get(0).sig()));

        assertFalse(new DsseEnvelope("application/json", BODY, envelope.signatures()).verify(publicKey),
                "the type is signed");
        assertFalse(new DsseEnvelope(envelope.payloadType(), "hello worle".getBytes(StandardCharsets.UTF_8),
                envelope.signatures()).verify(publicKey), "the payload is signed");
        assertFalse(envelope.verify(NoteKey.parse(SignedNoteTest.ENOCH_KEY).publicKey()), "another key");
    }

    @Test
    void anotherSignatureMayJoin() {
        PublicKey publicKey = NoteKey.parse(SignedNoteTest.PETER_KEY).publicKey();
        DsseEnvelope envelope = new DsseEnvelope(TYPE, BODY, List.of(new DsseSignature("x", new byte[64])))
                .withSignature(null, SignedNoteTest.peterPrivateKey());
        assertEquals(2, envelope.signatures().size());
        assertTrue(envelope.verify(publicKey));
        assertFalse(envelope.toJson().contains("\"keyid\":null"));
    }

    @Test
    void urlSafeBase64IsAccepted() {
        DsseEnvelope envelope = DsseEnvelope.parse("{\"payload\":\"_-8\",\"payloadType\":\"t\",\"signatures\":"
                + "[{\"sig\":\"AA\"}]}");
        assertArrayEquals(new byte[] {(byte) 0xFF, (byte) 0xEF}, envelope.payload());
        assertArrayEquals(Base64.getDecoder().decode("AA=="), envelope.signatures().get(0).sig());
    }

    @Test
    void malformedEnvelopesAreRefused() {
        for (String json : List.of("[]", "{}", "{\"payload\":\"\",\"payloadType\":\"t\"}",
                "{\"payload\":\"\",\"payloadType\":\"t\",\"signatures\":[]}",
                "{\"payload\":\"\",\"payloadType\":\"\",\"signatures\":[{\"sig\":\"\"}]}",
                "{\"payload\":\"!\",\"payloadType\":\"t\",\"signatures\":[{\"sig\":\"\"}]}",
                "{\"payload\":\"\",\"payloadType\":\"t\",\"signatures\":[{\"keyid\":\"k\"}]}",
                "{\"payload\":\"\",\"payloadType\":\"t\",\"signatures\":[{\"sig\":\"\",\"extra\":1}]}",
                "{\"payload\":\"\",\"payloadType\":\"t\",\"signatures\":[{\"sig\":\"\"}],\"more\":true}",
                "{\"payload\":\"\",\"payload\":\"\",\"payloadType\":\"t\",\"signatures\":[{\"sig\":\"\"}]}",
                "{\"payload\":1,\"payloadType\":\"t\",\"signatures\":[{\"sig\":\"\"}]}")) {
            assertThrows(MalformedInput.class, () -> DsseEnvelope.parse(json), json);
        }
    }
}
