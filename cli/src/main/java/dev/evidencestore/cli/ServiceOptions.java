package dev.evidencestore.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The options of every command that talks to the service; each falls back to the environment, then the file. */
final class ServiceOptions {

    @Option(names = "--url", paramLabel = "URL",
            description = "The service's base URL, such as http://localhost:8080 (env EVIDENCE_URL).")
    String url;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "A file holding the bearer token (env EVIDENCE_TOKEN or EVIDENCE_TOKEN_FILE).")
    Path tokenFile;

    @Option(names = {"-w", "--workspace"}, paramLabel = "WS", description = "The workspace (env EVIDENCE_WORKSPACE).")
    String workspace;

    @Option(names = "--key", paramLabel = "PUBLIC.pem",
            description = "The log's public key to pin, obtained out of band; without it the first use pins the key"
                    + " the service lists, and says so.")
    Path key;

    @Option(names = "--attempts", paramLabel = "N",
            description = "How often to try a request before giving up (default 6).")
    Integer attempts;
}
