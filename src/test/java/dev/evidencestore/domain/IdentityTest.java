package dev.evidencestore.domain;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Principals and display names alone: their forms and what they refuse. */
class IdentityTest {

    @Test
    void aPrincipalReadsBackFromItsRecordedForm() {
        Principal principal = new Principal("https://idp.example/realms/ops", "user 42@x");
        assertEquals("https://idp.example/realms/ops user 42@x", principal.toString());
        assertEquals(principal, Principal.parse(principal.toString()));
        assertNotEquals(new Principal("https://idp.example", "alice"), new Principal("https://idp.example", "Alice"));
    }

    @Test
    void aPrincipalNeedsAnIssuerWithoutSpacesAndAShortPrintableSubject() {
        assertUnauthorized("iss must be printable characters without spaces", () -> new Principal("a b", "alice"));
        assertUnauthorized("sub must be 1 to 255 printable characters", () -> new Principal("https://i", ""));
        assertUnauthorized("sub must be 1 to 255 printable characters",
                () -> new Principal("https://i", "a".repeat(256)));
        assertUnauthorized("sub must be 1 to 255 printable characters", () -> new Principal("https://i", "a\nb"));
    }

    @Test
    void displayNamesAreShowableAndNeverAnonymous() {
        assertEquals("Zoë O'Neil", DisplayName.require("upn", "Zoë O'Neil"));
        String rule = "upn must be 1 to 200 printable characters, without spaces at either end";
        assertUnauthorized(rule, () -> DisplayName.require("upn", ""));
        assertUnauthorized(rule, () -> DisplayName.require("upn", "alice "));
        assertUnauthorized(rule, () -> DisplayName.require("upn", "a\tb"));
        assertUnauthorized(rule, () -> DisplayName.require("upn", "a\u200bb"));
        assertUnauthorized(rule, () -> DisplayName.require("upn", "a".repeat(201)));
        assertUnauthorized("upn \"ANONYMOUS\" is reserved for callers without a token",
                () -> DisplayName.require("upn", "ANONYMOUS"));
    }

    private static void assertUnauthorized(String detail, Runnable check) {
        Refusal refusal = assertThrows(Refusal.class, check::run);
        assertEquals(ProblemType.UNAUTHORIZED, refusal.type());
        assertEquals(detail, refusal.getMessage());
    }
}
