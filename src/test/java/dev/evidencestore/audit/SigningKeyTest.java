package dev.evidencestore.audit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Optional;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Production starts only with a signing key of its own; dev and test mode use the development key. */
class SigningKeyTest {

    private static final String DEV_KEY = "dev/keys/audit-ed25519-private.pem";

    @Test
    void productionRefusesTheDevelopmentKey(@TempDir Path dir) throws IOException {
        Path copy = dir.resolve("renamed.pem");
        Files.copy(Path.of(DEV_KEY), copy);
        for (String location : new String[] {DEV_KEY, copy.toString()}) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> SigningKey.load(Optional.of(location), true));
            assertThat(refused.getMessage(), containsString("points at the development key"));
            assertThat(refused.getMessage(), containsString("EVIDENCE_AUDIT_SIGNING_KEY_LOCATION"));
        }
    }

    @Test
    void refusesToStartWithoutAKey() {
        for (boolean production : new boolean[] {true, false}) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> SigningKey.load(Optional.empty(), production));
            assertThat(refused.getMessage(), containsString("is not set"));
        }
    }

    @Test
    void developmentUsesTheDevelopmentKeyWhosePublicHalfIsPackaged() throws Exception {
        KeyPair key = SigningKey.load(Optional.of(DEV_KEY), false);
        String packaged = Files.readString(Path.of("src/main/resources", SigningKey.DEV_PUBLIC_KEY))
                .replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        assertArrayEquals(Base64.getDecoder().decode(packaged), key.getPublic().getEncoded());
    }

    @Test
    void productionAcceptsAKeyOfItsOwnAndDerivesItsPublicHalf(@TempDir Path dir) throws Exception {
        KeyPair generated = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        Path pem = dir.resolve("audit-signing.pem");
        Files.writeString(pem, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(generated.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        KeyPair loaded = SigningKey.load(Optional.of(pem.toString()), true);
        assertArrayEquals(generated.getPublic().getEncoded(), loaded.getPublic().getEncoded());
    }

    @Test
    void refusesWhatIsNotAnEd25519PrivateKey(@TempDir Path dir) throws IOException, GeneralSecurityException {
        Path rsa = dir.resolve("rsa.pem");
        Files.writeString(rsa, "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(
                KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        Path missing = dir.resolve("missing.pem");
        assertThat(refusal(rsa), containsString("is not an Ed25519 private key"));
        assertThat(refusal(missing), containsString("cannot read"));
    }

    private static String refusal(Path key) {
        return assertThrows(IllegalStateException.class, () -> SigningKey.load(Optional.of(key.toString()), true))
                .getMessage();
    }
}
