package dev.evidencestore.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A person at a terminal: a home of their own (so their witness remembers only what they saw), their environment,
 * and the CLI run in this JVM with it. What it printed and its exit status come back as a {@link Result}.
 */
final class CliUser {

    final Path home;
    private final Map<String, String> environment = new HashMap<>();

    CliUser(Path home) {
        this.home = home;
        environment.put("HOME", home.toString());
        environment.put("XDG_CONFIG_HOME", home.resolve("config").toString());
        environment.put("XDG_STATE_HOME", home.resolve("state").toString());
        environment.put("HOSTNAME", "it-host");
    }

    /** A user of this service and workspace, with a token for these roles in a file. */
    static CliUser of(Path home, PackagedService service, String workspace, String subject, String... roles) {
        CliUser user = new CliUser(home);
        user.set("EVIDENCE_URL", service.url().toString()).set("EVIDENCE_WORKSPACE", workspace);
        try {
            Path token = Files.createDirectories(home).resolve(subject + ".token");
            Files.writeString(token, service.token(subject, roles) + "\n");
            user.set("EVIDENCE_TOKEN_FILE", token.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return user;
    }

    CliUser set(String variable, String value) {
        environment.put(variable, value);
        return this;
    }

    CliUser url(URI url) {
        return set("EVIDENCE_URL", url.toString());
    }

    Result run(String... arguments) {
        return withInput(new ByteArrayInputStream(new byte[0]), arguments);
    }

    Result withInput(String stdin, String... arguments) {
        return withInput(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), arguments);
    }

    Result withInput(InputStream stdin, String... arguments) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = EvidenceCommand.run(new Invocation(Map.copyOf(environment), stdin, outStream, errStream), arguments);
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
        }
    }
}
