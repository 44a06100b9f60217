package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.PrintStream;
import java.nio.file.Path;

/** The citation check as a person reads it: one row per cited ID, then one line that sums it up. */
final class CitationTable {

    private static final String ROW = "%-20s %6s %8s  %s%n";

    private final PrintStream out;
    private final boolean namesFiles;

    CitationTable(PrintStream out, boolean namesFiles) {
        this.out = out;
        this.namesFiles = namesFiles;
    }

    void print(Path file, JsonNode verdict) {
        if (namesFiles) {
            out.println("== " + file);
        }
        JsonNode citations = verdict.path("citations");
        if (citations.size() > 0) {
            out.printf(ROW, "STATUS", "LINE", "MENTIONS", "ID");
        }
        int notOk = 0;
        for (JsonNode citation : citations) {
            String status = citation.path("status").asText();
            if (!status.equals("ok")) {
                notOk++;
            }
            out.printf(ROW, status, citation.path("line").asText(), citation.path("mentions").asText(),
                    citation.path("id").asText());
        }
        out.println(file + ": " + summary(citations.size(), notOk));
    }

    static String summary(int cited, int notOk) {
        if (cited == 0) {
            return "cites no artifact or finding";
        }
        return notOk == 0 ? cited + " citation" + (cited == 1 ? "" : "s") + ", all ok"
                : notOk + " of " + cited + " citation" + (cited == 1 ? "" : "s") + " not ok";
    }
}
