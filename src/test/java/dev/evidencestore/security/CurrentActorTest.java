package dev.evidencestore.security;

import dev.evidencestore.domain.Principal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import jakarta.json.Json;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The actor of a token: its claims read once per verified token object, its roles from each request's identity. */
class CurrentActorTest {

    @Test
    void aRepeatedTokenIsReadOnceAndItsRolesComeFromTheIdentity() {
        CountingToken token = new CountingToken("https://idp.example", "u-1", Map.of("upn", "alice@example.com",
                "workspaces", Json.createArrayBuilder().add("demo").add("team-b").build()));
        Actor first = CurrentActor.of(identity(token, "collector"));
        int reads = token.reads;
        Actor second = CurrentActor.of(identity(token, "reader"));

        assertEquals(new Actor("alice@example.com", new Principal("https://idp.example", "u-1"), Set.of("collector"),
                Set.of("demo", "team-b")), first);
        assertEquals(new Actor("alice@example.com", new Principal("https://idp.example", "u-1"), Set.of("reader"),
                Set.of("demo", "team-b")), second);
        assertEquals(reads, token.reads, "the second request read the token's claims again");
    }

    @Test
    void anotherTokenObjectIsReadForItself() {
        Actor alice = CurrentActor.of(identity(new CountingToken("https://idp.example", "u-2",
                Map.of("preferred_username", "alice")), "reader"));
        Actor bob = CurrentActor.of(identity(new CountingToken("https://idp.example", "u-2",
                Map.of("preferred_username", "bob")), "reader"));

        assertEquals("alice", alice.name());
        assertEquals("bob", bob.name());
        assertEquals(null, bob.workspaces(), "a token without workspaces reaches every workspace");
    }

    private static QuarkusSecurityIdentity identity(JsonWebToken token, String role) {
        return QuarkusSecurityIdentity.builder().setPrincipal(token).addRole(role).build();
    }

    /** A verified token's claims, counting every read of one. */
    private static final class CountingToken implements JsonWebToken {

        private final Map<String, Object> claims = new HashMap<>();
        private int reads;

        CountingToken(String issuer, String subject, Map<String, Object> more) {
            claims.put("iss", issuer);
            claims.put("sub", subject);
            claims.putAll(more);
        }

        @Override
        public String getName() {
            return (String) claims.get("sub");
        }

        @Override
        public Set<String> getClaimNames() {
            return claims.keySet();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T getClaim(String claimName) {
            reads++;
            return (T) claims.get(claimName);
        }
    }
}
