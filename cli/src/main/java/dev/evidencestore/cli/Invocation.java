package dev.evidencestore.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What a run of the CLI gets from the process around it: the environment, standard input and the two output
 * streams. Passed in rather than read from {@link System}, so that tests run the CLI in their own JVM with an
 * environment of their choosing.
 */
record Invocation(Map<String, String> environment, InputStream in, PrintStream out, PrintStream err) {

    static Invocation ofProcess() {
        return new Invocation(System.getenv(), System.in, System.out, System.err);
    }

    Optional<String> variable(String name) {
        return Optional.ofNullable(environment.get(name)).filter(value -> !value.isBlank());
    }

    /** {@code $XDG_CONFIG_HOME/evidence}, else {@code ~/.config/evidence}. */
    Path configDirectory() {
        return xdg("XDG_CONFIG_HOME", ".config");
    }

    /** {@code $XDG_STATE_HOME/evidence}, else {@code ~/.local/state/evidence}: where the witness remembers. */
    Path stateDirectory() {
        return xdg("XDG_STATE_HOME", ".local/state");
    }

    private Path xdg(String variable, String fallback) {
        return variable(variable).map(Path::of).filter(Path::isAbsolute)
                .orElseGet(() -> home().resolve(fallback)).resolve("evidence");
    }

    private Path home() {
        return variable("HOME").map(Path::of).orElseGet(() -> Path.of(System.getProperty("user.home")));
    }
}
