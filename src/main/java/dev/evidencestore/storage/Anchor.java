package dev.evidencestore.storage;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;

/**
 * A place outside the database where small signed notes are published: a name is written once, and nothing here
 * overwrites or deletes it, so whoever rewrites the database cannot rewrite what was published. Names are listed in
 * byte order, a page at a time, so a reader never holds more than a page.
 */
public interface Anchor {

    /** A signed checkpoint is a few hundred bytes; anything much larger under a name is not one. */
    int MAX_NOTE = 16 * 1024;

    /** Publishing turned off ({@code evidence.audit.publish=none}): nothing is written, nothing is listed. */
    Anchor NONE = new NoAnchor();

    /** False only for {@link #NONE}. */
    default boolean enabled() {
        return true;
    }

    /**
     * Writes {@code note} under {@code name}, visible complete or not at all. A name that holds exactly these bytes
     * already is left as it is, so publishing again is harmless.
     *
     * @throws FileAlreadyExistsException when the name holds other bytes: they are never overwritten
     */
    void publish(String name, byte[] note) throws IOException;

    /** Whether something is published under {@code name}. */
    boolean holds(String name) throws IOException;

    /** Up to {@code limit} names after {@code after} (exclusive; "" for the first page), in byte order. */
    List<String> names(String after, int limit) throws IOException;

    /** The bytes under {@code name}, refused when longer than {@link #MAX_NOTE}. */
    byte[] read(String name) throws IOException;

    /** Where {@code name} is, for messages an operator follows: a path, or an {@code s3://} URL. */
    String locate(String name);
}
