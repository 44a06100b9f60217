package dev.evidencestore.web;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.FindingId;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the IDs a postmortem cites, written as code spans ({@code <code>artifact:demo:v1:INC-1423:panel</code>}),
 * into links to their pages. Only text that parses as an artifact or finding ID becomes a link, and such text
 * holds nothing but letters, digits, dashes and colons, so the links add no markup of their own beyond the anchor.
 * Code spans already inside a link stay as they are: links do not nest.
 */
final class CitationLinks {

    private static final Pattern CODE_SPAN = Pattern.compile("<code>((?:artifact|finding):[A-Za-z0-9:-]+)</code>");

    private CitationLinks() {
    }

    static String link(String html) {
        Matcher m = CODE_SPAN.matcher(html);
        StringBuilder out = new StringBuilder(html.length() + 256);
        int last = 0;
        while (m.find()) {
            String href = insideLink(html, m.start()) ? null : href(m.group(1));
            if (href == null) {
                continue;
            }
            out.append(html, last, m.start())
                    .append("<a class=\"cite\" href=\"").append(href).append("\">").append(m.group()).append("</a>");
            last = m.end();
        }
        return out.append(html, last, html.length()).toString();
    }

    private static String href(String id) {
        try {
            return id.startsWith("artifact:") ? Html.artifact(ArtifactId.parse(id)) : Html.finding(FindingId.parse(id));
        } catch (RuntimeException notAnId) {
            return null;
        }
    }

    private static boolean insideLink(String html, int at) {
        int open = Math.max(html.lastIndexOf("<a ", at), html.lastIndexOf("<a>", at));
        return open > html.lastIndexOf("</a>", at);
    }
}
