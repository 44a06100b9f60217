package dev.evidencestore.deployment;

import io.smallrye.jwt.build.Jwt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;

/**
 * Key pairs made for one run of the packaged jar: production refuses the published dev keys, as it should, so the
 * integration tests bring their own, the way an operator would.
 */
public final class ThrowawayKeys {

    public static final String ISSUER = "https://evidence-store.dev/it-issuer";

    public final Path jwtPublicKey;
    public final Path auditSigningKey;
    private final PrivateKey jwtSigningKey;

    public ThrowawayKeys(Path directory) {
        try {
            Files.createDirectories(directory);
            KeyPair jwt = generate("RSA");
            jwtSigningKey = jwt.getPrivate();
            jwtPublicKey = write(directory.resolve("jwt-public.pem"), "PUBLIC KEY", jwt.getPublic());
            auditSigningKey = write(directory.resolve("audit-ed25519.pem"), "PRIVATE KEY", generate("Ed25519").getPrivate());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String token(String name, String... roles) {
        return Jwt.upn(name).subject(name).issuer(ISSUER).groups(Set.of(roles)).expiresIn(Duration.ofHours(1))
                .sign(jwtSigningKey);
    }

    private static KeyPair generate(String algorithm) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (algorithm.equals("RSA")) {
                generator.initialize(2048);
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path write(Path file, String label, Key key) throws IOException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded());
        return Files.writeString(file, "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n");
    }
}
