package dev.evidencestore.audit;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name a checkpoint is published under, {@code checkpoint-<tree size in 20 digits>-<key id>}: names sort by tree
 * size, and one name fixes the note's bytes (its body is the origin, the size and the root of that many entries, and
 * Ed25519 signatures are deterministic), so two checkpoints that share a name are the same note and never collide.
 */
record PublishedName(long size, String keyId) {

    static final String PREFIX = "checkpoint-";
    private static final Pattern FORM = Pattern.compile("checkpoint-(\\d{20})-([0-9a-f]{8})");

    static Optional<PublishedName> parse(String name) {
        Matcher matcher = FORM.matcher(name);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PublishedName(Long.parseLong(matcher.group(1)), matcher.group(2)));
        } catch (NumberFormatException tooLarge) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return PREFIX + String.format("%020d", size) + "-" + keyId;
    }
}
