package dev.evidencestore.preview;

import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Chunk;
import com.github.difflib.unifieddiff.UnifiedDiffFile;
import com.github.difflib.unifieddiff.UnifiedDiffReader;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Unified diffs as git writes them ({@code git diff}, {@code git show}), parsed by java-diff-utils, with whatever
 * precedes the first file: the deployment header block the CLI's GitHub adapter writes and the commits of
 * {@code git show}. Each hunk comes back as git printed it: context, removed and added lines with their numbers.
 */
public final class UnifiedDiff implements Recogniser {

    private static final Set<String> MEDIA_TYPES = Set.of("text/x-diff", "text/x-patch", "text/diff");
    private static final Pattern COMMIT = Pattern.compile("^commit ([0-9a-f]{7,64})\\b.*");
    private static final Pattern HEADER_FIELD = Pattern.compile("^([a-z][a-z ]*):\\s+(\\S.*)$");
    private static final Pattern SHA = Pattern.compile("\\b[0-9a-f]{40}\\b|\\b[0-9a-f]{64}\\b");
    private static final Pattern BINARY = Pattern.compile("^Binary files (.+) and (.+) differ$", Pattern.MULTILINE);
    private static final Pattern FILE_START = Pattern.compile("^diff --git ", Pattern.MULTILINE);
    private static final Pattern COMPARE = Pattern.compile("^Comparing (\\S+?)\\.\\.\\.?(\\S+?):?(\\s.*)?$");

    @Override
    public String name() {
        return "diff/1";
    }

    @Override
    public boolean accepts(Subject subject) {
        String essence = subject.essence();
        return MEDIA_TYPES.contains(essence) || subject.fromSource("github") && essence.startsWith("text/");
    }

    @Override
    public Preview read(Subject subject, Prefix prefix) throws Unreadable {
        String text = prefix.text();
        List<String> pieces = pieces(text);
        String preamble;
        List<DiffPreview.File> files = new ArrayList<>();
        if (pieces.size() == 1) {
            // no git headers: plain diff -u output, read whole
            com.github.difflib.unifieddiff.UnifiedDiff diff = parse(text);
            preamble = diff.getHeader();
            diff.getFiles().stream().map(UnifiedDiff::file).forEach(files::add);
        } else {
            preamble = pieces.get(0);
            for (String piece : pieces.subList(1, pieces.size())) {
                files.addAll(files(piece));
            }
        }
        if (files.isEmpty()) {
            throw new Unreadable("the text holds no file of a unified diff");
        }
        List<String> lines = preamble == null || preamble.isBlank() ? List.of()
                : List.of(preamble.stripTrailing().split("\r?\n", -1));
        List<String> header = new ArrayList<>();
        List<DiffPreview.Commit> commits = new ArrayList<>();
        split(lines, header, commits);
        DiffPreview preview = new DiffPreview(header, commits, files, Facts.NONE);
        return new DiffPreview(header, commits, files, facts(subject, header, commits, preview));
    }

    /**
     * The text before the first {@code diff --git} line, then one piece per file. The reader is given one file at a
     * time: it folds a file git shows only as "Binary files a/x and b/x differ" into the next one, so such a file
     * is read here, as a binary change without hunks.
     */
    private static List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        Matcher start = FILE_START.matcher(text);
        int from = 0;
        while (start.find()) {
            pieces.add(text.substring(from, start.start()));
            from = start.start();
        }
        pieces.add(text.substring(from));
        return pieces;
    }

    private static List<DiffPreview.File> files(String piece) throws Unreadable {
        Matcher binary = BINARY.matcher(piece);
        if (binary.find()) {
            return List.of(new DiffPreview.File(side(binary.group(1)), side(binary.group(2)), "binary", List.of()));
        }
        return parse(piece).getFiles().stream().map(UnifiedDiff::file).toList();
    }

    private static com.github.difflib.unifieddiff.UnifiedDiff parse(String text) throws Unreadable {
        try {
            return UnifiedDiffReader.parseUnifiedDiff(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException | RuntimeException e) {
            throw new Unreadable("the text is not a unified diff: " + e.getMessage());
        }
    }

    /** {@code a/path} or {@code b/path} as the path, {@code /dev/null} as it is. */
    private static String side(String name) {
        return name.startsWith("a/") || name.startsWith("b/") ? name.substring(2) : name;
    }

    private static DiffPreview.File file(UnifiedDiffFile file) {
        String change = file.getBinaryAdded() != null || file.getBinaryDeleted() != null
                || file.getBinaryEdited() != null ? "binary"
                : file.getNewFileMode() != null ? "added"
                : file.getDeletedFileMode() != null ? "deleted"
                : file.getRenameFrom() != null ? "renamed"
                : "modified";
        String from = file.getRenameFrom() != null ? file.getRenameFrom() : file.getFromFile();
        String to = file.getRenameTo() != null ? file.getRenameTo() : file.getToFile();
        List<DiffPreview.Hunk> hunks = file.getPatch().getDeltas().stream().map(UnifiedDiff::hunk).toList();
        return new DiffPreview.File(from, to, change, hunks);
    }

    /**
     * One hunk. The reader gives each hunk as one delta whose source and target chunks hold every line of their
     * side, context included, with the numbers of the removed and added lines; git prints a hunk's removed lines
     * before its added ones wherever they meet, and so does this.
     */
    private static DiffPreview.Hunk hunk(AbstractDelta<String> delta) {
        Chunk<String> source = delta.getSource();
        Chunk<String> target = delta.getTarget();
        Set<Integer> removed = Set.copyOf(source.getChangePosition() == null ? List.of() : source.getChangePosition());
        Set<Integer> added = Set.copyOf(target.getChangePosition() == null ? List.of() : target.getChangePosition());
        int oldStart = source.getPosition() + 1;
        int newStart = target.getPosition() + 1;
        List<String> old = source.getLines();
        List<String> fresh = target.getLines();
        List<DiffPreview.Line> lines = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < old.size() || j < fresh.size()) {
            boolean oldChanged = i < old.size() && (removed.contains(oldStart + i) || j >= fresh.size());
            boolean newChanged = j < fresh.size() && (added.contains(newStart + j) || i >= old.size());
            if (oldChanged) {
                lines.add(new DiffPreview.Line(DiffPreview.Line.REMOVED, oldStart + i, null, old.get(i)));
                i++;
            } else if (newChanged) {
                lines.add(new DiffPreview.Line(DiffPreview.Line.ADDED, null, newStart + j, fresh.get(j)));
                j++;
            } else {
                lines.add(new DiffPreview.Line(DiffPreview.Line.CONTEXT, oldStart + i, newStart + j, fresh.get(j)));
                i++;
                j++;
            }
        }
        String header = "@@ -" + range(oldStart, old.size()) + " +" + range(newStart, fresh.size()) + " @@";
        return new DiffPreview.Hunk(header, lines);
    }

    private static String range(int start, int count) {
        // git writes an empty side as the line before it, and a one-line side without its count
        return count == 0 ? (start - 1) + ",0" : count == 1 ? Integer.toString(start) : start + "," + count;
    }

    /** The lines before the first file: a header block, then the commits as {@code git show} prints them. */
    private static void split(List<String> preamble, List<String> header, List<DiffPreview.Commit> commits) {
        int i = 0;
        while (i < preamble.size() && !COMMIT.matcher(preamble.get(i)).matches()) {
            header.add(preamble.get(i++));
        }
        while (i < preamble.size()) {
            Matcher commit = COMMIT.matcher(preamble.get(i++));
            if (!commit.matches()) {
                continue;
            }
            String author = null;
            String date = null;
            List<String> message = new ArrayList<>();
            while (i < preamble.size() && !COMMIT.matcher(preamble.get(i)).matches()) {
                String line = preamble.get(i++);
                if (line.startsWith("Author:")) {
                    author = line.substring(7).strip();
                } else if (line.startsWith("Date:")) {
                    date = line.substring(5).strip();
                } else if (line.startsWith("    ")) {
                    message.add(line.substring(4));
                } else if (line.isEmpty() && !message.isEmpty()) {
                    message.add("");
                }
            }
            while (!message.isEmpty() && message.get(message.size() - 1).isEmpty()) {
                message.remove(message.size() - 1);
            }
            commits.add(new DiffPreview.Commit(commit.group(1), author, date, message));
        }
        while (!header.isEmpty() && header.get(header.size() - 1).isBlank()) {
            header.remove(header.size() - 1);
        }
    }

    private static Facts facts(Subject subject, List<String> header, List<DiffPreview.Commit> commits,
                               DiffPreview diff) {
        String repository = null;
        Set<String> refs = new LinkedHashSet<>();
        Set<String> shas = new LinkedHashSet<>();
        for (String line : header) {
            Matcher field = HEADER_FIELD.matcher(line);
            if (field.matches()) {
                String name = field.group(1);
                String value = field.group(2).strip();
                if (name.equals("repository")) {
                    repository = value;
                } else if (name.equals("ref") || name.equals("previous")) {
                    refs.add(value.replaceFirst("\\s*\\(.*\\)$", ""));
                }
            }
            Matcher compare = COMPARE.matcher(line);
            if (compare.matches()) {
                refs.add(compare.group(1));
                refs.add(compare.group(2));
            }
            Matcher sha = SHA.matcher(line);
            while (sha.find()) {
                shas.add(sha.group());
            }
        }
        commits.forEach(commit -> shas.add(commit.sha()));
        Facts.Builder facts = Facts.builder()
                .fact("repository", "Repository", repository)
                .fact("refs", "Refs", refs)
                .fact("commits", "Commits", shas)
                .fact("files", "Files", diff.files().stream().map(DiffPreview.File::path).toList())
                .fact("lines", "Lines", "+" + diff.added() + " −" + diff.removed());
        String declaredCommit = subject.declared("commit");
        if (declaredCommit != null && shas.stream().noneMatch(sha -> sha.startsWith(declaredCommit)
                || declaredCommit.startsWith(sha))) {
            facts.disagree("commit", declaredCommit, shas.isEmpty() ? "the diff names no commit"
                    : "the diff names " + String.join(", ", shas));
        }
        String declaredRepository = subject.declared("repository");
        if (declaredRepository != null && repository != null && !declaredRepository.equals(repository)) {
            facts.disagree("repository", declaredRepository, "the diff is of " + repository);
        }
        return facts.build();
    }
}
