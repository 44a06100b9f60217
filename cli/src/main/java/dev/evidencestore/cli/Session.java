package dev.evidencestore.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A command's connection to one service, from flags, then the environment, then the config file. Opening one runs
 * the witness first: no command trusts a service whose log disagrees with what this machine saw of it before.
 */
final class Session {

    private static final String API_SUFFIX = "/api/v1";

    final ServiceClient client;
    final Invocation invocation;
    private final Optional<String> workspace;

    private Session(ServiceClient client, Invocation invocation, Optional<String> workspace) {
        this.client = client;
        this.invocation = invocation;
        this.workspace = workspace;
    }

    static Session open(ServiceOptions options, Invocation invocation) {
        ConfigFile config = ConfigFile.read(invocation.configDirectory().resolve("config"));
        URI base = baseUrl(first(options.url, invocation.variable("EVIDENCE_URL"), config.value("url"))
                .orElseThrow(() -> CommandFailure.usage("no service: give --url, set EVIDENCE_URL or put url = … in "
                        + config.path())));
        int attempts = options.attempts != null ? options.attempts
                : config.value("attempts").map(Session::attempts).orElse(6);
        if (attempts < 1) {
            throw CommandFailure.usage("--attempts must be at least 1");
        }
        ServiceClient client = new ServiceClient(base, token(options, invocation, config), Backoff.standard(attempts),
                invocation.err());
        Optional<String> workspace = first(options.workspace, invocation.variable("EVIDENCE_WORKSPACE"),
                config.value("workspace"));
        Optional<Path> key = Optional.ofNullable(options.key).or(() -> config.value("key").map(Path::of));
        new Witness(client, new WitnessState(invocation.stateDirectory()), invocation.err()).observe(key);
        return new Session(client, invocation, workspace);
    }

    String workspace() {
        return workspace.orElseThrow(() -> CommandFailure.usage(
                "no workspace: give --workspace, set EVIDENCE_WORKSPACE or put workspace = … in the config file"));
    }

    private static Optional<String> first(String flag, Optional<String> variable, Optional<String> configured) {
        return Optional.ofNullable(flag).filter(value -> !value.isBlank()).or(() -> variable).or(() -> configured);
    }

    static URI baseUrl(String text) {
        String url = text.strip();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        if (url.endsWith(API_SUFFIX)) {
            url = url.substring(0, url.length() - API_SUFFIX.length());
        }
        URI uri;
        try {
            uri = URI.create(url + "/");
        } catch (IllegalArgumentException e) {
            throw CommandFailure.usage("the service URL \"" + text + "\" is not a URL");
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw CommandFailure.usage("the service URL \"" + text + "\" is not an http or https URL");
        }
        return uri;
    }

    /** The token from the first source that has one; never echoed, not even in an error. */
    private static Optional<String> token(ServiceOptions options, Invocation invocation, ConfigFile config) {
        if (options.tokenFile != null) {
            return Optional.of(readToken(options.tokenFile));
        }
        Optional<String> variable = invocation.variable("EVIDENCE_TOKEN").map(String::strip);
        if (variable.isPresent()) {
            return variable;
        }
        return invocation.variable("EVIDENCE_TOKEN_FILE").or(() -> config.value("token-file"))
                .map(file -> readToken(Path.of(file)));
    }

    private static String readToken(Path file) {
        try {
            String token = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (token.isEmpty() || token.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
                throw CommandFailure.usage("the token file " + file + " does not hold one token");
            }
            return token;
        } catch (IOException e) {
            throw CommandFailure.usage("cannot read the token file " + file + ": " + e.getMessage());
        }
    }

    private static int attempts(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw CommandFailure.usage("attempts in the config file is not a number: " + text);
        }
    }
}
