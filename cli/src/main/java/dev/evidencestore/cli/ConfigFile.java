package dev.evidencestore.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * {@code $XDG_CONFIG_HOME/evidence/config}: {@code key = value} lines ({@code url}, {@code workspace},
 * {@code token-file}, {@code key}), the lowest of flags, environment and file. It holds no token itself, only where
 * one is, so that the file can be shared or committed without a secret in it.
 */
final class ConfigFile {

    static final Set<String> KEYS = Set.of("url", "workspace", "token-file", "key", "attempts");

    private final Path path;
    private final Properties values;

    private ConfigFile(Path path, Properties values) {
        this.path = path;
        this.values = values;
    }

    static ConfigFile read(Path path) {
        Properties values = new Properties();
        if (Files.isRegularFile(path)) {
            try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
                values.load(reader);
            } catch (IOException | IllegalArgumentException e) {
                throw CommandFailure.usage("cannot read the config file " + path + ": " + e.getMessage());
            }
            for (String key : values.stringPropertyNames()) {
                if (!KEYS.contains(key)) {
                    throw CommandFailure.usage("the config file " + path + " has the unknown key \"" + key
                            + "\"; known: url, workspace, token-file, key, attempts (a token itself belongs in"
                            + " the file token-file names)");
                }
            }
        }
        return new ConfigFile(path, values);
    }

    Optional<String> value(String key) {
        return Optional.ofNullable(values.getProperty(key)).map(String::strip).filter(value -> !value.isEmpty());
    }

    Path path() {
        return path;
    }
}
