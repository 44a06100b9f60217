package dev.evidencestore.verify;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * A C2SP tlog-checkpoint: the note text that commits a log to its tree at one size, the origin (the log's name),
 * the tree size in decimal, the base64 root hash, then optional extension lines. Signing it is {@link SignedNote}'s
 * part.
 */
public record Checkpoint(String origin, long size, byte[] rootHash, List<String> extensions) {

    public Checkpoint {
        if (origin == null || origin.isEmpty() || origin.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("the origin must be one non-empty line");
        }
        if (size < 0) {
            throw new IllegalArgumentException("the tree size " + size + " is negative");
        }
        MerkleHash.requireHash(rootHash, "the root hash");
        rootHash = rootHash.clone();
        extensions = List.copyOf(extensions);
        for (String extension : extensions) {
            if (extension.isEmpty() || extension.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("an extension line must be one non-empty line");
            }
        }
    }

    public Checkpoint(String origin, long size, byte[] rootHash) {
        this(origin, size, rootHash, List.of());
    }

    /** The root hash; a copy, since a record hands out its array otherwise. */
    @Override
    public byte[] rootHash() {
        return rootHash.clone();
    }

    /** origin, size, base64 root, each extension: one line each, each ending in a newline. */
    public String body() {
        StringBuilder body = new StringBuilder().append(origin).append('\n').append(size).append('\n')
                .append(Base64.getEncoder().encodeToString(rootHash)).append('\n');
        extensions.forEach(extension -> body.append(extension).append('\n'));
        String text = body.toString();
        SignedNote.requireText(text);
        return text;
    }

    /** Reads a checkpoint's note text strictly: three lines at least, a size without leading zeros, a 32-byte root. */
    public static Checkpoint parse(String body) {
        SignedNote.requireText(body);
        String[] lines = body.substring(0, body.length() - 1).split("\n", -1);
        if (lines.length < 3) {
            throw new MalformedInput("a checkpoint has an origin, a size and a root hash; this has " + lines.length
                    + " lines");
        }
        if (lines[0].isEmpty()) {
            throw new MalformedInput("the checkpoint's origin is empty");
        }
        long size = parseSize(lines[1]);
        byte[] root = NoteSignature.decodeBase64(lines[2], "the checkpoint's root hash");
        if (root.length != MerkleHash.SIZE) {
            throw new MalformedInput("the checkpoint's root hash is " + root.length + " bytes, not " + MerkleHash.SIZE);
        }
        List<String> extensions = new ArrayList<>(Arrays.asList(lines).subList(3, lines.length));
        for (int i = 0; i < extensions.size(); i++) {
            if (extensions.get(i).isEmpty()) {
                throw new MalformedInput("the checkpoint's extension line " + (i + 1) + " is empty");
            }
        }
        return new Checkpoint(lines[0], size, root, extensions);
    }

    private static long parseSize(String line) {
        if (!line.matches("0|[1-9][0-9]{0,18}")) {
            throw new MalformedInput("the checkpoint's tree size \"" + line + "\" is not a decimal without leading zeros");
        }
        try {
            return Long.parseLong(line);
        } catch (NumberFormatException e) {
            throw new MalformedInput("the checkpoint's tree size " + line + " is too large", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Checkpoint && origin.equals(((Checkpoint) other).origin)
                && size == ((Checkpoint) other).size && Arrays.equals(rootHash, ((Checkpoint) other).rootHash)
                && extensions.equals(((Checkpoint) other).extensions);
    }

    @Override
    public int hashCode() {
        return (origin.hashCode() * 31 + Long.hashCode(size)) * 31 + Arrays.hashCode(rootHash);
    }

    @Override
    public String toString() {
        return "Checkpoint[" + origin + ", " + size + ", " + Base64.getEncoder().encodeToString(rootHash) + ", "
                + extensions + "]";
    }
}
