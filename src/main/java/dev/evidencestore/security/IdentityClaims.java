package dev.evidencestore.security;

import dev.evidencestore.domain.DisplayName;
import dev.evidencestore.domain.Principal;
import dev.evidencestore.domain.Refusal;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The claims that say who a caller is and what they reach, checked in a verified token's payload as the identity
 * provider signed it (and in a refused token's, to say why it was refused). The JWT library's accessors blur what
 * matters here: a claim set to {@code null} reads like an absent one (and an absent {@code workspaces} reaches every
 * workspace), and a {@code groups} object fails inside the library with a ClassCastException. So every such claim
 * that is present must have its JSON type, and every name must be one a record can show ({@link DisplayName}).
 */
final class IdentityClaims {

    static final String UPN = "upn";
    static final String PREFERRED_USERNAME = "preferred_username";
    static final String WORKSPACES = "workspaces";
    private static final String ISS = "iss";
    private static final String SUB = "sub";
    private static final List<String> STRINGS = List.of(ISS, SUB, UPN, PREFERRED_USERNAME);
    private static final List<String> STRING_ARRAYS = List.of("groups", WORKSPACES);

    private IdentityClaims() {
    }

    /**
     * Refuses the verified compact token {@code token} unless its identity claims can be trusted and it lives no
     * longer than {@code lifetime} allows.
     */
    static void check(String token, TokenLifetime lifetime) throws UntrustedIdentity {
        JsonObject claims = payload(token)
                .orElseThrow(() -> untrusted("claims cannot be read: it is not a signed compact JWT"));
        check(claims);
        lifetime.check(claims, Instant.now());
    }

    /** As {@link #check(String)}, for a token refused already: one whose payload is not JSON is left to that. */
    static void checkIfReadable(String token) throws UntrustedIdentity {
        Optional<JsonObject> claims = payload(token);
        if (claims.isPresent()) {
            check(claims.get());
            TokenLifetime.checkTypes(claims.get());
        }
    }

    private static void check(JsonObject claims) throws UntrustedIdentity {
        for (String claim : STRINGS) {
            if (claims.containsKey(claim) && !(claims.get(claim) instanceof JsonString)) {
                throw untrusted(claim + " must be a string");
            }
        }
        for (String claim : STRING_ARRAYS) {
            if (claims.containsKey(claim) && !isStringArray(claims.get(claim))) {
                throw untrusted(claim + " must be an array of strings");
            }
        }
        if (!claims.containsKey(SUB)) {
            throw untrusted("sub is missing; it is what tells one caller from another");
        }
        try {
            new Principal(claims.getString(ISS, null), claims.getString(SUB));
            boolean named = false;
            for (String claim : List.of(UPN, PREFERRED_USERNAME)) {
                if (claims.containsKey(claim)) {
                    DisplayName.require(claim, claims.getString(claim));
                    named = true;
                }
            }
            if (!named) {
                // the sub is shown instead (displayName), so it must be showable too
                DisplayName.require(SUB, claims.getString(SUB));
            }
        } catch (Refusal refusal) {
            throw untrusted(refusal.getMessage());
        }
    }

    /**
     * The name records show: {@code upn}, else {@code preferred_username} (as OpenID Connect providers send it), else
     * the {@code sub} itself, so that a token with no display name still shows who it was.
     */
    static String displayName(String upn, String preferredUsername, String sub) {
        return upn != null ? upn : preferredUsername != null ? preferredUsername : sub;
    }

    private static boolean isStringArray(JsonValue value) {
        return value.getValueType() == JsonValue.ValueType.ARRAY
                && value.asJsonArray().stream().allMatch(JsonString.class::isInstance);
    }

    private static Optional<JsonObject> payload(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        try (JsonReader reader = Json.createReader(new StringReader(
                new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)))) {
            return Optional.of(reader.readObject());
        } catch (IllegalArgumentException | JsonException | IllegalStateException e) {
            return Optional.empty();
        }
    }

    static UntrustedIdentity untrusted(String problem) {
        return UntrustedIdentity.ofBearerToken(problem);
    }
}
