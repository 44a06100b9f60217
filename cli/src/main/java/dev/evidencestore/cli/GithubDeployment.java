package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A GitHub deployment as evidence: the deployment ({@code GET /repos/{repo}/deployments/{id}}), its statuses
 * ({@code …/statuses}), the previous deployment to the same environment when no base is given, and the comparison
 * of the two commits, as JSON for the commits and as {@code application/vnd.github.diff} for the diff.
 */
record GithubDeployment(String repository, JsonNode deployment, List<JsonNode> statuses, String baseRef,
        String baseSha, JsonNode compare, String diff) {

    private static final DateTimeFormatter GIT_DATE = DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy Z",
            Locale.ROOT);

    static GithubDeployment fetch(SourceApi github, String repository, long id, Optional<String> base) {
        String path = "repos/" + repository + "/deployments/";
        JsonNode deployment = github.getJson(path + id);
        List<JsonNode> statuses = new ArrayList<>();
        github.getJson(path + id + "/statuses?per_page=100").forEach(statuses::add);
        statuses.sort(Comparator.comparing(status -> status.path("created_at").asText()));
        String baseRef;
        String baseSha;
        if (base.isPresent()) {
            baseRef = base.get();
            baseSha = base.get();
        } else {
            JsonNode previous = previous(github, path, deployment);
            baseRef = previous.path("ref").asText();
            baseSha = previous.path("sha").asText();
        }
        String range = "repos/" + repository + "/compare/" + baseSha + "..." + deployment.path("sha").asText();
        JsonNode compare = github.getJson(range);
        String diff = github.getText(range, "application/vnd.github.diff");
        return new GithubDeployment(repository, deployment, statuses, baseRef, baseSha, compare, diff);
    }

    /** The deployment to the same environment just before this one (GitHub lists them newest first). */
    private static JsonNode previous(SourceApi github, String path, JsonNode deployment) {
        String environment = deployment.path("environment").asText();
        String created = deployment.path("created_at").asText();
        for (JsonNode other : github.getJson(path.substring(0, path.length() - 1) + "?environment="
                + URLEncoder.encode(environment, StandardCharsets.UTF_8) + "&per_page=100")) {
            if (other.path("id").asLong() != deployment.path("id").asLong()
                    && other.path("created_at").asText().compareTo(created) < 0) {
                return other;
            }
        }
        throw CommandFailure.usage("no earlier deployment to " + environment + " to compare with; give --base");
    }

    String environment() {
        return deployment.path("environment").asText();
    }

    String ref() {
        return deployment.path("ref").asText();
    }

    String sha() {
        return deployment.path("sha").asText();
    }

    /** The header block, the statuses, the comparison's summary and commits, then the diff as GitHub gave it. */
    String text() {
        StringBuilder text = new StringBuilder();
        text.append("GitHub deployment ").append(deployment.path("id").asText()).append('\n');
        line(text, "repository:", repository);
        line(text, "environment:", environment());
        line(text, "ref:", ref());
        line(text, "sha:", sha());
        line(text, "creator:", deployment.path("creator").path("login").asText());
        line(text, "previous:", baseRef + (baseRef.equals(baseSha) ? "" : " (" + baseSha + ")"));
        text.append("statuses:\n");
        for (JsonNode status : statuses) {
            text.append("  ").append(status.path("created_at").asText()).append("  ")
                    .append(String.format("%-12s", status.path("state").asText())).append(' ')
                    .append(status.path("description").asText("")).append('\n');
        }
        text.append('\n').append(summary()).append("\n\n");
        for (JsonNode commit : compare.path("commits")) {
            commit(text, commit);
        }
        text.append(diff.endsWith("\n") || diff.isEmpty() ? diff : diff + "\n");
        return text.toString();
    }

    private String summary() {
        long additions = 0;
        long deletions = 0;
        for (JsonNode file : compare.path("files")) {
            additions += file.path("additions").asLong();
            deletions += file.path("deletions").asLong();
        }
        int commits = compare.path("total_commits").asInt(compare.path("commits").size());
        int files = compare.path("files").size();
        return "Comparing " + baseRef + "..." + ref() + ": " + commits + " commit" + (commits == 1 ? "" : "s") + ", "
                + files + " file" + (files == 1 ? "" : "s") + " changed, " + additions + " insertion"
                + (additions == 1 ? "" : "s") + "(+), " + deletions + " deletion" + (deletions == 1 ? "" : "s") + "(-)";
    }

    private static void commit(StringBuilder text, JsonNode commit) {
        JsonNode author = commit.path("commit").path("author");
        text.append("commit ").append(commit.path("sha").asText()).append('\n');
        text.append("Author: ").append(author.path("name").asText()).append(" <")
                .append(author.path("email").asText()).append(">\n");
        String date = author.path("date").asText();
        try {
            date = GIT_DATE.format(OffsetDateTime.parse(date));
        } catch (DateTimeParseException e) {
            // kept as GitHub wrote it
        }
        text.append("Date:   ").append(date).append("\n\n");
        for (String line : commit.path("commit").path("message").asText().split("\n", -1)) {
            text.append(line.isEmpty() ? "" : "    " + line).append('\n');
        }
        text.append('\n');
    }

    private static void line(StringBuilder text, String label, String value) {
        text.append(String.format("%-14s", label)).append(value).append('\n');
    }
}
