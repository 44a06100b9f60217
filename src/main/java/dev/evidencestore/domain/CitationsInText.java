package dev.evidencestore.domain;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
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
    private static final Pattern LINE_BREAK = Pattern.compile("\\R");

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
        scan(text, mentions::add);
        return mentions;
    }

    /** Hands every mention to {@code each}, in the order of the text, without keeping them. */
    public static void scan(String text, Consumer<Mention> each) {
        String[] lines = LINE_BREAK.split(text, -1);
        for (int number = 1; number <= lines.length; number++) {
            String line = lines[number - 1];
            Matcher ids = ID.matcher(line);
            if (!ids.find()) {
                continue;
            }
            List<String> digestsOnLine = DIGEST.matcher(line).results().map(MatchResult::group).toList();
            do {
                each.accept(new Mention(ids.group(), number, digestsOnLine));
            } while (ids.find());
        }
    }

    /**
     * The distinct IDs the text cites, in the order they first appear, if there are at most {@code max};
     * otherwise the 413 refusal, as soon as one more turns up, so a text of thousands of IDs costs no more to refuse
     * than the limit.
     */
    public static Set<String> distinctIds(String text, int max) {
        Set<String> ids = new LinkedHashSet<>();
        scan(text, mention -> {
            if (ids.add(mention.id()) && ids.size() > max) {
                throw new Refusal(ProblemType.TEXT_TOO_LARGE, "texts to check may cite at most " + max
                        + " distinct artifact and finding IDs; this one cites more").with("maxDistinctIds", max);
            }
        });
        return ids;
    }
}
