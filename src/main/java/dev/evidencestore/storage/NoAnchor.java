package dev.evidencestore.storage;

import java.io.IOException;
import java.util.List;

/** No anchor: checkpoints stay in the database alone. */
final class NoAnchor implements Anchor {

    @Override
    public boolean enabled() {
        return false;
    }

    @Override
    public void publish(String name, byte[] note) throws IOException {
        throw new IOException("publishing is off (evidence.audit.publish=none)");
    }

    @Override
    public boolean holds(String name) {
        return false;
    }

    @Override
    public List<String> names(String after, int limit) {
        return List.of();
    }

    @Override
    public byte[] read(String name) throws IOException {
        throw new IOException("publishing is off (evidence.audit.publish=none)");
    }

    @Override
    public String locate(String name) {
        return name;
    }
}
