package dev.evidencestore.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a postmortem written anywhere cites, read line by line: every {@code artifact:…} and {@code finding:…} ID,
 * with the digests written on the same line, against which the citation check holds the artifact's own. The
 * reading needs no store, so the page the service writes can be shown to keep every citation readable.
 */
public final class CitationsInText {

    private static final String WORKSPACE = "[a-z0-9][a-z0-9-]{0,31}";
    private static final String INCIDENT = "[A-Z][A-Z0-9]{0,15}-[0-9]{1,9}";
    private static final Pattern ID = Pattern.compile(
            "(?<![\\w:-])(artifact|finding):" + WORKSPACE + ":v1:" + INCIDENT + ":[a-z0-9][a-z0-9-]{0,63}(?![\\w-])");
    private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}(?![0-9a-f])");

    /** One ID as written, on its line (counted from 1), with every digest on that line. */
    public record Mention(String id, int line, List<String> digestsOnLine) {

        public Mention {
            digestsOnLine = List.copyOf(digestsOnLine);
        }
    }

    private CitationsInText() {
    }

    public static List<Mention> read(String text) {
        List<Mention> mentions = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int number = 1; number <= lines.length; number++) {
            String line = lines[number - 1];
            List<String> digestsOnLine = DIGEST.matcher(line).results().map(MatchResult::group).toList();
            Matcher ids = ID.matcher(line);
            while (ids.find()) {
                mentions.add(new Mention(ids.group(), number, digestsOnLine));
            }
        }
        return mentions;
    }
}
