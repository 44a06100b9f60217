package dev.evidencestore.render;

import dev.evidencestore.domain.ActionItem;
import dev.evidencestore.domain.IncidentRecord;
import dev.evidencestore.domain.TimelineEntry;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableBody;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.node.Code;
import org.commonmark.node.Document;
import org.commonmark.node.Heading;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.renderer.html.AttributeProvider;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The anchors a postmortem page gives the parts of the record, named by the records' own IDs, so that a link to
 * {@code #timeline:demo:v1:INC-1423:3} lands on that entry: each chronology row, each finding, each action, and the
 * root cause's heading; every other section heading gets its title as a slug. The rows of the chronology and the
 * actions are the record's entries in the order the Markdown writes them, so the n-th row is the n-th entry. Each
 * table is named and reachable by keyboard, since on a phone it scrolls sideways.
 */
public record PostmortemAnchors(List<String> timeline, List<String> actions, String rootCause) {

    static final String CHRONOLOGY = "Chronology";
    static final String ACTIONS = "Actions";
    static final String FINDINGS = "Findings";
    static final String ROOT_CAUSE = "Root cause";

    public PostmortemAnchors {
        timeline = List.copyOf(timeline);
        actions = List.copyOf(actions);
    }

    public static PostmortemAnchors of(IncidentRecord record) {
        return new PostmortemAnchors(record.timeline().stream().map(TimelineEntry::id).map(Object::toString).toList(),
                record.actions().stream().map(ActionItem::id).map(Object::toString).toList(),
                record.rootCause() == null ? null : record.rootCause().id().toString());
    }

    AttributeProvider provider() {
        return this::anchor;
    }

    private void anchor(Node node, String tag, Map<String, String> attributes) {
        String id = null;
        if (node instanceof Heading heading && heading.getLevel() == 2) {
            String title = text(heading);
            id = ROOT_CAUSE.equals(title) && rootCause != null ? rootCause : slug(title);
        } else if (node instanceof TableRow row && row.getParent() instanceof TableBody body) {
            String section = section(body);
            List<String> ids = CHRONOLOGY.equals(section) ? timeline : ACTIONS.equals(section) ? actions : List.of();
            int index = indexOf(body, row);
            id = index < ids.size() ? ids.get(index) : null;
        } else if (node instanceof ListItem item && FINDINGS.equals(section(item))
                && item.getFirstChild() != null && item.getFirstChild().getFirstChild() instanceof Code code
                && code.getLiteral().startsWith("finding:")) {
            id = code.getLiteral();
        }
        if (id != null) {
            attributes.put("id", id);
        }
        if (node instanceof TableBlock) {
            // a wide table scrolls sideways on a phone: a keyboard must reach it, and a reader can name it
            attributes.put("tabindex", "0");
            String section = section(node);
            attributes.put("aria-label", section == null ? "Incident details" : section);
        }
    }

    /** The title of the second-level heading above the top-level block that holds {@code node}. */
    private static String section(Node node) {
        Node block = node;
        while (block.getParent() != null && !(block.getParent() instanceof Document)) {
            block = block.getParent();
        }
        for (Node previous = block.getPrevious(); previous != null; previous = previous.getPrevious()) {
            if (previous instanceof Heading heading && heading.getLevel() == 2) {
                return text(heading);
            }
        }
        return null;
    }

    private static int indexOf(Node parent, Node child) {
        int index = 0;
        for (Node n = parent.getFirstChild(); n != null && n != child; n = n.getNext()) {
            index++;
        }
        return index;
    }

    private static String text(Node node) {
        StringBuilder text = new StringBuilder();
        for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
            if (child instanceof Text literal) {
                text.append(literal.getLiteral());
            }
        }
        return text.toString();
    }

    static String slug(String title) {
        return title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    }
}
