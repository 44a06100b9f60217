package dev.evidencestore.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.Routes;
import dev.evidencestore.render.RecordText;
import io.quarkus.qute.RawString;
import jakarta.ws.rs.core.Response;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** What the web pages share: their media type, the paths they link to and how they show values. */
final class Html {

    static final String MEDIA_TYPE = "text/html;charset=UTF-8";

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();

    private Html() {
    }

    /** A rendered page; never cached by shared caches, since what a page shows depends on the caller's token. */
    static Response page(String html) {
        return Response.ok(html, MEDIA_TYPE).header("Cache-Control", "private, no-cache").build();
    }

    static String workspace(Workspace workspace) {
        return "/workspaces/" + workspace.slug();
    }

    static String incident(Workspace workspace, IncidentKey key) {
        return workspace(workspace) + "/incidents/" + key.value();
    }

    /** IDs hold only letters, digits, dashes and colons, which a path segment takes as they are. */
    static String artifact(Object id) {
        return "/artifacts/" + id;
    }

    static String finding(Object id) {
        return "/findings/" + id;
    }

    static String content(ArtifactId id) {
        return Routes.artifact(id) + "/content";
    }

    /** Record text as inline Markdown, escaped, with every cited ID linked to its page. */
    static RawString text(String text) {
        return new RawString(CitationLinks.link(RecordText.line(text)));
    }

    static String time(Instant instant) {
        return instant == null ? "" : TIME.format(instant);
    }

    static String iso(Instant instant) {
        return instant == null ? "" : instant.toString();
    }

    static String digest(Digest digest) {
        return digest == null ? "" : digest.toString();
    }

    static String size(long bytes) {
        String exact = String.format(Locale.ROOT, "%,d byte%s", bytes, bytes == 1 ? "" : "s");
        if (bytes < 1024) {
            return exact;
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s (%s)", value, units[unit], exact);
    }

    /** JSON text indented for reading; anything that does not parse is shown as it is. */
    static String prettyJson(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(JSON.readTree(json));
        } catch (JsonProcessingException e) {
            return json;
        }
    }
}
