package dev.evidencestore.docs;

import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README and everything under docs/ link only to files that exist and to anchors their targets have, as GitHub
 * renders them. External links are not fetched: a test run must not depend on the network.
 */
class DocumentationLinksTest {

    private static final Path CHECKOUT = Path.of("").toAbsolutePath();
    private static final Parser MARKDOWN = Parser.builder().extensions(List.of(TablesExtension.create())).build();
    /** A URI scheme (http:, https:, mailto:): not a file in the repository. */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    /** Anchors written as HTML, which GitHub keeps beside the headings' own. */
    private static final Pattern HTML_ANCHOR = Pattern.compile("\\s(?:id|name)=\"([^\"]+)\"");

    private final Map<Path, Set<String>> anchorsByFile = new HashMap<>();

    @Test
    void relativeLinksPointToFilesAndAnchorsThatExist() {
        List<Path> documents = documents();
        assertTrue(documents.contains(CHECKOUT.resolve("README.md")), "README.md is checked: " + documents);
        assertTrue(documents.size() > 1, "docs/**/*.md are checked: " + documents);

        List<String> broken = new ArrayList<>();
        int relative = 0;
        for (Path document : documents) {
            for (String destination : links(parse(document))) {
                if (SCHEME.matcher(destination).find() || destination.startsWith("//")) {
                    continue;
                }
                relative++;
                String problem = problem(document, destination);
                if (problem != null) {
                    broken.add(CHECKOUT.relativize(document) + ": (" + destination + ") " + problem);
                }
            }
        }
        assertTrue(relative > 0, "the documents have relative links to check");
        assertEquals(List.of(), broken, "broken links");
    }

    @Test
    void anchorsAreGitHubHeadingSlugs() {
        Node headings = MARKDOWN.parse("""
                # Retries with `Idempotency-Key`
                ## 6. hostile
                ## Security: tokens, roles and workspaces
                ## Walk-through
                ## Walk-through
                ## Walk-through
                ### Snake_case and  two spaces — a dash
                """);
        assertEquals(Set.of("retries-with-idempotency-key", "6-hostile", "security-tokens-roles-and-workspaces",
                "walk-through", "walk-through-1", "walk-through-2", "snake_case-and--two-spaces--a-dash"),
                anchors(headings));
    }

    /** What is wrong with a relative link from {@code document}, or null when nothing is. */
    private String problem(Path document, String destination) {
        int hash = destination.indexOf('#');
        String path = decode(hash < 0 ? destination : destination.substring(0, hash));
        String fragment = hash < 0 ? null : decode(destination.substring(hash + 1));
        Path target;
        if (path.isEmpty()) {
            target = document;
        } else if (path.startsWith("/")) {
            // GitHub resolves a link starting with / from the root of the repository
            target = CHECKOUT.resolve(path.substring(1)).normalize();
        } else {
            target = document.getParent().resolve(path).normalize();
        }
        if (!target.startsWith(CHECKOUT)) {
            return "points outside the repository";
        }
        if (!Files.exists(target)) {
            return "no such file: " + CHECKOUT.relativize(target);
        }
        // only Markdown files have anchors this test can know; GitHub makes line anchors (#L12) for the others
        if (fragment != null && !fragment.isEmpty() && Files.isRegularFile(target)
                && target.getFileName().toString().endsWith(".md")
                && !anchorsOf(target).contains(fragment)) {
            return "no anchor #" + fragment + " in " + CHECKOUT.relativize(target) + " (it has "
                    + anchorsOf(target) + ")";
        }
        return null;
    }

    private Set<String> anchorsOf(Path markdown) {
        return anchorsByFile.computeIfAbsent(markdown, file -> anchors(parse(file)));
    }

    /**
     * The anchors GitHub gives a document: each heading's text in lower case, with every space a hyphen and every
     * character removed that is not a letter, digit, mark, hyphen or underscore; a repeated slug gets -1, -2, ...
     * (as github-slugger does it). Anchors written as HTML id or name attributes count too.
     */
    static Set<String> anchors(Node document) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> occurrences = new HashMap<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                String base = slug(text(heading));
                String slug = base;
                while (occurrences.containsKey(slug)) {
                    int next = occurrences.merge(base, 1, Integer::sum);
                    slug = base + "-" + next;
                }
                occurrences.put(slug, 0);
                anchors.add(slug);
            }

            @Override
            public void visit(HtmlInline html) {
                htmlAnchors(html.getLiteral());
            }

            @Override
            public void visit(HtmlBlock html) {
                htmlAnchors(html.getLiteral());
            }

            private void htmlAnchors(String html) {
                Matcher matcher = HTML_ANCHOR.matcher(html);
                while (matcher.find()) {
                    anchors.add(matcher.group(1));
                }
            }
        });
        return anchors;
    }

    static String slug(String heading) {
        StringBuilder slug = new StringBuilder();
        heading.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (c == '-' || c == '_' || Character.isLetterOrDigit(c) || isMark(c)) {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }

    private static boolean isMark(int c) {
        int type = Character.getType(c);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }

    /** A heading's text as GitHub renders it: the words and code spans, without the Markdown around them. */
    private static String text(Node node) {
        StringBuilder text = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text literal) {
                text.append(literal.getLiteral());
            }

            @Override
            public void visit(Code code) {
                text.append(code.getLiteral());
            }
        });
        return text.toString();
    }

    private static List<String> links(Node document) {
        List<String> destinations = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                destinations.add(link.getDestination());
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                destinations.add(image.getDestination());
                visitChildren(image);
            }
        });
        return destinations;
    }

    private static List<Path> documents() {
        List<Path> documents = new ArrayList<>();
        documents.add(CHECKOUT.resolve("README.md"));
        try (Stream<Path> files = Files.walk(CHECKOUT.resolve("docs"))) {
            files.filter(file -> file.getFileName().toString().endsWith(".md")).sorted().forEach(documents::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return documents;
    }

    private static Node parse(Path markdown) {
        try {
            return MARKDOWN.parse(Files.readString(markdown));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String decode(String uriPart) {
        // decode %20 and the like, but keep a literal + (URLDecoder would make it a space)
        return URLDecoder.decode(uriPart.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
