package dev.evidencestore.preview;

import java.util.List;

/**
 * A unified diff as git writes it: the header block above it (as of a deployment), the commits it belongs to, and
 * each file's hunks, line by line with old and new line numbers.
 */
public record DiffPreview(List<String> header, List<Commit> commits, List<File> files, Facts facts)
        implements Preview {

    public DiffPreview {
        header = List.copyOf(header);
        commits = List.copyOf(commits);
        files = List.copyOf(files);
    }

    public int added() {
        return files.stream().mapToInt(File::added).sum();
    }

    public int removed() {
        return files.stream().mapToInt(File::removed).sum();
    }

    public record Commit(String sha, String author, String date, List<String> message) {
        public Commit {
            message = List.copyOf(message);
        }

        public String subject() {
            return message.isEmpty() ? "" : message.get(0);
        }

        /** The message after its subject, without the blank line git puts between them. */
        public List<String> body() {
            int from = 1;
            while (from < message.size() && message.get(from).isBlank()) {
                from++;
            }
            return from >= message.size() ? List.of() : message.subList(from, message.size());
        }
    }

    /** {@code change}: modified, added, deleted, renamed or binary. */
    public record File(String oldPath, String newPath, String change, List<Hunk> hunks) {
        public File {
            hunks = List.copyOf(hunks);
        }

        public String path() {
            return newPath == null || newPath.equals("/dev/null") ? oldPath : newPath;
        }

        public int added() {
            return hunks.stream().mapToInt(h -> h.count(Line.ADDED)).sum();
        }

        public int removed() {
            return hunks.stream().mapToInt(h -> h.count(Line.REMOVED)).sum();
        }
    }

    public record Hunk(String header, List<Line> lines) {
        public Hunk {
            lines = List.copyOf(lines);
        }

        int count(String type) {
            return (int) lines.stream().filter(line -> line.type().equals(type)).count();
        }
    }

    /** {@code type}: context, added or removed; a line number is null on the side the line is not on. */
    public record Line(String type, Integer oldNumber, Integer newNumber, String text) {
        public static final String CONTEXT = "context";
        public static final String ADDED = "added";
        public static final String REMOVED = "removed";

        public String sign() {
            return type.equals(ADDED) ? "+" : type.equals(REMOVED) ? "-" : " ";
        }
    }
}
