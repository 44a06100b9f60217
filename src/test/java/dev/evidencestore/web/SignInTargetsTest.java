package dev.evidencestore.web;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Where a sign-in may send the browser next: a page of this service, never another site. */
class SignInTargetsTest {

    @Test
    void aPathOfThisServiceIsKept() {
        String incident = "/workspaces/platform/incidents/INC-1?cursor=x";
        assertEquals(incident, SignIn.localPage(incident));
        assertEquals("/", SignIn.localPage("/"));
    }

    @Test
    void anythingElseGoesHome() {
        for (String elsewhere : new String[] {null, "", "https://evil.example/", "//evil.example/x", "/\\evil.example",
                "evil.example", "javascript:alert(1)", "/a b", "/\r\nSet-Cookie: x=1"}) {
            assertEquals("/", SignIn.localPage(elsewhere), String.valueOf(elsewhere));
        }
    }
}
