package dev.evidencestore.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Production refuses the dev token key however it is given, and refuses to run without any key. */
class DevKeyGuardTest {

    private static final Path DEV_KEY = Path.of("src/main/resources/dev-keys/jwt-public.pem");

    @Test
    void refusesTheDevKeyByLocationByCopyAndInline(@TempDir Path dir) throws IOException {
        Path copy = dir.resolve("renamed.pem");
        Files.copy(DEV_KEY, copy);
        assertTrue(DevKeyGuard.refusal(Optional.of("dev-keys/jwt-public.pem"), Optional.empty()).isPresent());
        assertTrue(DevKeyGuard.refusal(Optional.of(copy.toString()), Optional.empty()).isPresent());
        assertTrue(DevKeyGuard.refusal(Optional.of("file:" + copy), Optional.empty()).isPresent());
        assertTrue(DevKeyGuard.refusal(Optional.empty(), Optional.of(Files.readString(DEV_KEY))).isPresent());
    }

    @Test
    void refusesToRunWithoutAKey() {
        assertTrue(DevKeyGuard.refusal(Optional.empty(), Optional.empty()).orElseThrow().startsWith("no token key"));
    }

    @Test
    void acceptsAnyOtherKey(@TempDir Path dir) throws IOException {
        Path other = dir.resolve("idp.pem");
        Files.writeString(other, "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n"
                + "-----END PUBLIC KEY-----\n");
        assertEquals(Optional.empty(), DevKeyGuard.refusal(Optional.of(other.toString()), Optional.empty()));
        assertEquals(Optional.empty(), DevKeyGuard.refusal(Optional.of("https://idp.example/jwks.json"),
                Optional.empty()));
    }
}
