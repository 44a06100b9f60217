package dev.evidencestore.preview;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * What every artifact gets when no recogniser knows it, or when one could not read it: JSON indented, text with
 * line numbers, images from the content URL, and for anything else a note that there is no preview.
 */
public final class GenericPreview implements Recogniser {

    private static final Set<String> IMAGES = Set.of("image/png", "image/jpeg", "image/gif", "image/webp");
    private static final Set<String> TEXT = Set.of("application/xml", "application/yaml", "application/x-yaml",
            "application/x-ndjson", "application/toml", "application/javascript", "application/sql");

    @Override
    public String name() {
        return "generic/1";
    }

    @Override
    public boolean accepts(Subject subject) {
        return true;
    }

    /** Whether the preview reads bytes at all: an image is shown by the browser from the content URL. */
    public boolean reads(Subject subject) {
        return !IMAGES.contains(subject.essence());
    }

    @Override
    public Preview read(Subject subject, Prefix prefix) {
        String essence = subject.essence();
        if (IMAGES.contains(essence)) {
            return new ImagePreview(essence, Facts.NONE);
        }
        if (subject.isJson() && !prefix.truncated()) {
            try {
                String pretty = JsonBytes.MAPPER.writerWithDefaultPrettyPrinter()
                        .writeValueAsString(JsonBytes.MAPPER.readTree(prefix.bytes()));
                return new JsonPreview(pretty, (int) pretty.lines().count(), Facts.NONE);
            } catch (IOException e) {
                return text(prefix);
            }
        }
        if (subject.isJson() || essence.startsWith("text/") || TEXT.contains(essence) || isText(prefix)) {
            return text(prefix);
        }
        return new NoPreview(subject.mediaType(), Facts.NONE);
    }

    private static TextPreview text(Prefix prefix) {
        return new TextPreview(List.of(prefix.text().split("\r?\n", -1)), Facts.NONE);
    }

    /** Bytes of a type no one named are shown as text when they are UTF-8 without control characters. */
    private static boolean isText(Prefix prefix) {
        byte[] bytes = prefix.bytes();
        int end = bytes.length;
        if (prefix.truncated()) {
            // a prefix may end inside a character
            end = Math.max(0, end - 3);
        }
        for (int i = 0; i < end; i++) {
            byte b = bytes[i];
            if (b >= 0 && b < 0x20 && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, end));
            return end > 0;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
