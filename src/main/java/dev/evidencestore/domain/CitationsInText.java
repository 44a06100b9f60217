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
    /**
     * An ID from where it starts. What stands before it (not an ASCII letter or digit, {@code _}, {@code :} or
     * {@code -}) is checked by hand at each {@code artifact:} or {@code finding:} found with indexOf: a pattern
     * that starts with a lookbehind is tried at every character, and a megabyte of text took ten times as long.
     */
    private static final Pattern ID = Pattern.compile(
            "(artifact|finding):" + WORKSPACE + ":v1:" + INCIDENT + ":[a-z0-9][a-z0-9-]{0,63}(?![\\w-])");
    private static final String ARTIFACT = "artifact:";
    private static final String FINDING = "finding:";
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
        scan(text, mentions::add);
        return mentions;
    }

    /** Hands every mention to {@code each}, in the order of the text, without keeping them. */
    public static void scan(String text, Consumer<Mention> each) {
        forEachId(text, true, each);
    }

    /**
     * One pass over the text without splitting it: candidates are found with indexOf ({@code artifact:},
     * {@code finding:}), and the lines they are on are counted on the way. A megabyte split into lines and
     * searched with a pattern that starts with a lookbehind cost ten times as much time, and a copy of the text.
     */
    private static void forEachId(String text, boolean withDigests, Consumer<Mention> each) {
        Matcher id = ID.matcher(text);
        Next artifact = new Next(text, ARTIFACT);
        Next finding = new Next(text, FINDING);
        Next digest = new Next(text, "sha256:");
        int lineStart = 0;
        int lineEnd = lineEnd(text, 0);
        int line = 1;
        List<String> digests = null;
        int at = next(artifact, finding, 0);
        while (at >= 0) {
            while (at >= lineEnd) {
                lineStart = nextLineStart(text, lineEnd);
                lineEnd = lineEnd(text, lineStart);
                line++;
                digests = null;
            }
            if (at > 0 && joinsTheWordBefore(text.charAt(at - 1))) {
                at = next(artifact, finding, at + 1);
                continue;
            }
            if (!id.region(at, lineEnd).lookingAt()) {
                at = next(artifact, finding, at + 1);
                continue;
            }
            if (digests == null) {
                digests = withDigests ? digestsOn(text, digest.from(lineStart), lineStart, lineEnd) : List.of();
            }
            each.accept(new Mention(id.group(), line, digests));
            at = next(artifact, finding, id.end());
        }
    }

    private static int next(Next artifact, Next finding, int from) {
        int a = artifact.from(from);
        int f = finding.from(from);
        return a < 0 ? f : f < 0 ? a : Math.min(a, f);
    }

    private static List<String> digestsOn(String text, int digest, int lineStart, int lineEnd) {
        if (digest < 0 || digest >= lineEnd) {
            return List.of();
        }
        return DIGEST.matcher(text).region(lineStart, lineEnd).results().map(MatchResult::group).toList();
    }

    /** Where the line starting at {@code from} ends: at the next line break {@code \\R} matches, or the text's end. */
    private static int lineEnd(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\u000B' || c == '\f' || c == '\r' || c == '\u0085' || c == '\u2028'
                    || c == '\u2029') {
                return i;
            }
        }
        return text.length();
    }

    /** After the line break at {@code lineEnd}: {@code \\r\\n} is one. */
    private static int nextLineStart(String text, int lineEnd) {
        boolean crlf = text.charAt(lineEnd) == '\r' && lineEnd + 1 < text.length() && text.charAt(lineEnd + 1) == '\n';
        return lineEnd + (crlf ? 2 : 1);
    }

    /**
     * Where the next of each literal starts, searched for again only once passed: searching the rest of the text
     * for a literal it does not hold at every line would read the text once per line.
     */
    private static final class Next {

        private final String text;
        private final String literal;
        private int at = -2;

        Next(String text, String literal) {
            this.text = text;
            this.literal = literal;
        }

        int from(int from) {
            if (at != -1 && at < from) {
                at = text.indexOf(literal, from);
            }
            return at;
        }
    }

    /** An ASCII letter or digit, {@code _}, {@code :} or {@code -}: then what follows is not an ID of its own. */
    private static boolean joinsTheWordBefore(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == ':' || c == '-';
    }

    /**
     * The distinct IDs the text cites, in the order they first appear, if there are at most {@code max};
     * otherwise the 413 refusal, as soon as one more turns up, so a text of thousands of IDs costs no more to refuse
     * than the limit.
     */
    public static Set<String> distinctIds(String text, int max) {
        Set<String> ids = new LinkedHashSet<>();
        forEachId(text, false, mention -> {
            if (ids.add(mention.id()) && ids.size() > max) {
                throw new Refusal(ProblemType.TEXT_TOO_LARGE, "texts to check may cite at most " + max
                        + " distinct artifact and finding IDs; this one cites more").with("maxDistinctIds", max);
            }
        });
        return ids;
    }
}
