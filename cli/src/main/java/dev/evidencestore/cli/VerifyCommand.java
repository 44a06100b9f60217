package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code evidence verify ARTIFACT_ID [--file F]}: the service re-hashes the stored bytes and records the result. */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Ask the service to re-verify an artifact's stored bytes, and record the verification.",
            "With --file, a local copy's digest is computed, sent as the claimed digest and compared too."})
final class VerifyCommand implements Callable<Integer> {

    @ParentCommand
    EvidenceCommand root;

    @Parameters(paramLabel = "ARTIFACT_ID", description = "Such as artifact:demo:v1:INC-1423:grafana-checkout.")
    String artifactId;

    @Option(names = "--file", paramLabel = "FILE", description = "A local copy to check against the recorded digest.")
    Path file;

    @Option(names = "--json", description = "Print the verification as the service recorded it.")
    boolean json;

    @Mixin
    ServiceOptions service;

    @Override
    public Integer call() throws IOException {
        if (!artifactId.startsWith("artifact:")) {
            throw CommandFailure.usage("\"" + artifactId + "\" is not an artifact ID (artifact:WS:v1:INC-1:name)");
        }
        if (file != null && !Files.isRegularFile(file)) {
            throw CommandFailure.usage("no such file: " + file);
        }
        String claimed = null;
        if (file != null) {
            try (HashedFile local = HashedFile.of(file)) {
                claimed = local.digest();
            }
        }
        Session session = Session.open(service, root.invocation);
        Call call = Call.post("api/v1/artifacts/" + artifactId + "/verifications").idempotent(IdempotencyKey.fresh());
        if (claimed != null) {
            call.json(Json.write(Json.object().put("digest", claimed)));
        }
        JsonNode verification = Json.read(session.client.send(call).body());
        return report(verification, claimed);
    }

    private int report(JsonNode verification, String claimed) {
        PrintStream out = root.invocation.out();
        boolean verified = verification.path("verified").asBoolean(false);
        String recorded = verification.path("recordedDigest").asText();
        if (json) {
            out.println(Json.write(verification));
        } else {
            out.println((verified ? "verified " : "FAILED ") + artifactId + " " + recorded + " by "
                    + verification.path("verifiedBy").asText() + " at " + verification.path("verifiedAt").asText());
            if (!verified) {
                out.println("  stored bytes hash to " + verification.path("computedDigest").asText("(unreadable)"));
            }
            if (claimed != null) {
                out.println((claimed.equals(recorded) ? "  local copy matches: " : "  local copy DIFFERS: ") + file
                        + " is " + claimed);
            }
        }
        return verified && (claimed == null || claimed.equals(recorded)) ? ExitCodes.OK : ExitCodes.PROBLEM_FOUND;
    }
}
