package dev.evidencestore.http;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Refusal;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * RFC 9530 digest fields ({@code Content-Digest}, {@code Repr-Digest}): a structured-field dictionary of
 * algorithm to byte sequence. Only {@code sha-256} is checked; other algorithms are ignored, as the RFC allows.
 */
public final class ContentDigestHeader {

    public static final String NAME = "Content-Digest";
    private static final Pattern MEMBER = Pattern.compile("([a-z][a-z0-9_.*-]*)=:([A-Za-z0-9+/=]*):");

    private ContentDigestHeader() {
    }

    public static Optional<Digest> sha256(String header) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        Digest found = null;
        for (String member : header.split(",")) {
            Matcher m = MEMBER.matcher(member.strip());
            if (!m.matches()) {
                throw Refusal.invalid(NAME, "must be a dictionary like sha-256=:base64:, as in RFC 9530");
            }
            if (m.group(1).equals("sha-256")) {
                found = Digest.ofBase64(m.group(2));
            }
        }
        return Optional.ofNullable(found);
    }

    public static String format(Digest digest) {
        return "sha-256=:" + digest.base64() + ":";
    }
}
