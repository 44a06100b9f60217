package dev.evidencestore.cli;

import java.util.Locale;
import java.util.regex.Pattern;

/** An artifact's name within its incident, a slug as the API requires: {@code [a-z0-9][a-z0-9-]{0,63}}. */
final class ArtifactName {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final int MAX = 64;

    private ArtifactName() {
    }

    /** The name a file gets by default: its name without its last extension, made a slug. */
    static String ofFileName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        String stem = dot > 0 ? fileName.substring(0, dot) : fileName;
        String slug = stem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+", "");
        if (slug.length() > MAX) {
            slug = slug.substring(0, MAX);
        }
        slug = slug.replaceAll("-+$", "");
        if (slug.isEmpty()) {
            throw CommandFailure.usage("\"" + fileName + "\" gives no artifact name; give one with --name");
        }
        return slug;
    }

    static String require(String name) {
        if (!NAME.matcher(name).matches()) {
            throw CommandFailure.usage("the artifact name \"" + name + "\" is not a slug of lowercase letters, digits"
                    + " and hyphens (at most 64, not starting with a hyphen)");
        }
        return name;
    }
}
