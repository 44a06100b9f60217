package dev.evidencestore.support;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Real signed tokens for tests, made with the dev key pair the test profile trusts. */
public final class Tokens {

    public static final String ISSUER = "https://evidence-store.dev/dev-issuer";
    public static final Set<String> ALL_ROLES = Set.of("collector", "investigator", "reviewer", "reader");

    private static final PrivateKey DEV_KEY = readKey(Path.of("dev/keys/jwt-private.pem"));
    /**
     * Tokens already signed, by their claims: an RSA signature costs milliseconds (tens with the test JVM's C1), and
     * most requests of the suite carry one of a few tokens. One is reused for five of its thirty minutes.
     */
    private static final Map<List<Object>, Signed> SIGNED = new ConcurrentHashMap<>();

    private Tokens() {
    }

    /** A token for {@code upn} with these roles, limited to {@code workspaces} unless that is null. */
    public static String of(String upn, Set<String> roles, List<String> workspaces) {
        return of(upn, upn, roles, workspaces);
    }

    /** A token for the subject {@code sub}, showing the name {@code upn}. */
    public static String of(String sub, String upn, Set<String> roles, List<String> workspaces) {
        List<Object> claims = Arrays.asList(sub, upn, Set.copyOf(roles), workspaces);
        return SIGNED.compute(claims, (key, known) -> known != null && known.fresh() ? known
                : new Signed(sign(sub, upn, roles, workspaces), Instant.now())).token();
    }

    private static String sign(String sub, String upn, Set<String> roles, List<String> workspaces) {
        JwtClaimsBuilder claims = Jwt.upn(upn).subject(sub).issuer(ISSUER).groups(roles)
                .expiresIn(Duration.ofMinutes(30));
        if (workspaces != null) {
            claims.claim("workspaces", workspaces);
        }
        return claims.sign(DEV_KEY);
    }

    public static String of(String upn, String... roles) {
        return of(upn, Set.of(roles), null);
    }

    /** Alice does everything but is one person; four-eyes rules still apply to her. */
    public static String alice() {
        return of("alice", ALL_ROLES, null);
    }

    /** Bob reviews what others prepared. */
    public static String bob() {
        return of("bob", "reviewer", "reader");
    }

    public static String expired() {
        long issued = Instant.now().minusSeconds(3600).getEpochSecond();
        return Jwt.upn("alice").subject("alice").issuer(ISSUER).groups(ALL_ROLES).issuedAt(issued)
                .expiresAt(Instant.now().minusSeconds(120).getEpochSecond()).sign(DEV_KEY);
    }

    /** Alice's token whose {@code exp} is {@code seconds} from now (negative: already past). */
    public static String expiringIn(long seconds) {
        long now = Instant.now().getEpochSecond();
        return Jwt.upn("alice").subject("alice").issuer(ISSUER).groups(ALL_ROLES).issuedAt(now - 3600)
                .expiresAt(now + seconds)
                .sign(DEV_KEY);
    }

    public static String wrongIssuer() {
        return Jwt.upn("alice").issuer("https://attacker.example").groups(ALL_ROLES).sign(DEV_KEY);
    }

    public static String badSignature() {
        return Jwt.upn("alice").issuer(ISSUER).groups(ALL_ROLES).sign(ForeignKey.PRIVATE);
    }

    /**
     * A key the service does not trust, made once: a 2048-bit RSA key pair takes up to seconds to generate, and the
     * security matrix asks for a badly signed token for every route.
     */
    private static final class ForeignKey {
        static final PrivateKey PRIVATE = generate();

        private static PrivateKey generate() {
            try {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
                generator.initialize(2048);
                return generator.generateKeyPair().getPrivate();
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * A token signed with the dev key whose payload is {@code members} (JSON object members, as written) after
     * {@code iss}, {@code iat} and {@code exp}: for claims of types the builder would not write.
     */
    public static String withClaims(String members) {
        long now = Instant.now().getEpochSecond();
        return signed("{\"iss\":\"" + ISSUER + "\",\"iat\":" + now + ",\"exp\":" + (now + 600) + "," + members
                + "}");
    }

    /**
     * Alice's token, every role, with {@code iat} and {@code exp} as given (JSON values, as written; null leaves the
     * claim out): for lifetimes and types the builder would not write.
     */
    public static String withTimes(String iat, String exp) {
        return signed("{\"iss\":\"" + ISSUER + "\",\"sub\":\"alice\",\"upn\":\"alice\","
                + "\"groups\":[\"collector\",\"investigator\",\"reviewer\",\"reader\"]"
                + (iat == null ? "" : ",\"iat\":" + iat) + (exp == null ? "" : ",\"exp\":" + exp) + "}");
    }

    /** {@code payload} signed with the dev key as a compact RS256 JWT. */
    private static String signed(String payloadJson) {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String header = url.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = url.encodeToString(payloadJson.getBytes(StandardCharsets.UTF_8));
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(DEV_KEY);
            rsa.update((header + "." + payload).getBytes(StandardCharsets.US_ASCII));
            return header + "." + payload + "." + url.encodeToString(rsa.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An unsigned token ({@code alg: none}) claiming every role. */
    public static String algNone() {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String header = url.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        long now = Instant.now().getEpochSecond();
        String payload = url.encodeToString(("{\"upn\":\"alice\",\"sub\":\"alice\",\"iss\":\"" + ISSUER
                + "\",\"groups\":[\"collector\",\"investigator\",\"reviewer\",\"reader\"],\"iat\":" + now
                + ",\"exp\":" + (now + 600) + "}").getBytes(StandardCharsets.UTF_8));
        return header + "." + payload + ".";
    }

    private static PrivateKey readKey(Path pem) {
        try {
            String base64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder()
                    .decode(base64)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Signed(String token, Instant at) {
        boolean fresh() {
            return at.plus(Duration.ofMinutes(5)).isAfter(Instant.now());
        }
    }
}
