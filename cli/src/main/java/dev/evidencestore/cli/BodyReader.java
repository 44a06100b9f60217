package dev.evidencestore.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reads a successful answer's body inside the attempt, so that a connection lost while reading is retried too. */
@FunctionalInterface
interface BodyReader<T> {

    T read(InputStream body) throws IOException;

    static BodyReader<String> text() {
        return body -> new String(body.readAllBytes(), StandardCharsets.UTF_8);
    }
}
