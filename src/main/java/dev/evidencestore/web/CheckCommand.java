package dev.evidencestore.web;

import dev.evidencestore.domain.Digest;

import java.net.URI;
import java.util.Optional;
import java.nio.charset.StandardCharsets;

/**
 * The one line a reader pastes into a POSIX shell to download an artifact and check it against its digest with
 * {@code sha256sum}; it stops at the download when the server answers with an error. Every part is quoted or
 * made of characters a shell takes literally.
 */
final class CheckCommand {

    /** Characters RFC 3986 allows in a URI, less the single quote that would end the shell's quoting. */
    private static final String URI_CHARACTERS =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&()*+,;=%";

    private CheckCommand() {
    }

    /** The variable the command reads the service's address from when none is configured. */
    static final String ADDRESS_VARIABLE = "EVIDENCE_STORE";

    /**
     * {@code source} is the URL as a shell word ({@link #source}); {@code fileName} is the artifact's name, which is
     * lowercase letters, digits and dashes and never starts with a dash; {@code withToken} adds the bearer token
     * header, taken from {@code $TOKEN}.
     */
    static String of(String source, String fileName, Digest digest, boolean withToken) {
        return "curl -fsS " + (withToken ? "-H \"Authorization: Bearer $TOKEN\" " : "") + "-o " + fileName + " "
                + source + " && echo '" + digest.hex() + "  " + fileName + "' | sha256sum -c";
    }

    /**
     * The URL of {@code path} as one shell word: on the configured public address of the service, or, without one,
     * after {@code $EVIDENCE_STORE}, which the shell refuses to leave unset. Never the address a request came to:
     * its Host header is whatever the client sent, and a command people paste must not name a host of its choosing.
     */
    static String source(Optional<URI> publicUrl, String path) {
        return publicUrl.map(base -> "'" + absolute(base, path) + "'")
                .orElse("\"${" + ADDRESS_VARIABLE + ":?set it to the address of the Evidence Store}\"'"
                        + literal(path) + "'");
    }

    /** The absolute URL of {@code path} under {@code base}, every character one a shell takes literally. */
    static String absolute(URI base, String path) {
        String root = base.toString();
        if (root.endsWith("/")) {
            root = root.substring(0, root.length() - 1);
        }
        return literal(root + path);
    }

    private static String literal(String url) {
        StringBuilder out = new StringBuilder(url.length());
        for (byte b : url.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 128 && URI_CHARACTERS.indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}
