package dev.evidencestore.security;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Refuses to run production with the dev token key that is published in this repository, or with no key at all:
 * anyone could mint tokens for it.
 */
@Singleton
public class DevKeyGuard {

    static final String DEV_PUBLIC_KEY = "dev-keys/jwt-public.pem";
    private static final String LOCATION = "mp.jwt.verify.publickey.location";
    private static final String INLINE = "mp.jwt.verify.publickey";

    void check(@Observes StartupEvent startup, Config config) {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        refusal(config.getOptionalValue(LOCATION, String.class), config.getOptionalValue(INLINE, String.class))
                .ifPresent(reason -> {
                    throw new IllegalStateException(reason);
                });
    }

    /** Why production must not start with this key configuration, if it must not. */
    static Optional<String> refusal(Optional<String> location, Optional<String> inline) {
        if (location.isEmpty() && inline.isEmpty()) {
            return Optional.of("no token key: set " + LOCATION + " (a PEM file or JWKS URL) or " + INLINE);
        }
        String dev = normalized(devKey());
        boolean devLocation = location.map(l -> l.endsWith(DEV_PUBLIC_KEY) || normalized(read(l)).equals(dev))
                .orElse(false);
        boolean devInline = inline.map(k -> normalized(k).equals(dev)).orElse(false);
        if (devLocation || devInline) {
            return Optional.of("refusing to start in production with the published dev token key; "
                    + "configure your identity provider's key in " + LOCATION);
        }
        return Optional.empty();
    }

    private static String devKey() {
        try (InputStream in = DevKeyGuard.class.getClassLoader().getResourceAsStream(DEV_PUBLIC_KEY)) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a local key file; remote locations (JWKS URLs) cannot be the dev key file and read as empty. */
    private static String read(String location) {
        Path path = Path.of(location.startsWith("file:") ? location.substring("file:".length()) : location);
        try {
            return Files.isRegularFile(path) ? Files.readString(path, StandardCharsets.US_ASCII) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static String normalized(String pem) {
        return pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    }
}
