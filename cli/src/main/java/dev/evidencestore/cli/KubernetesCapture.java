package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * {@code evidence capture kubernetes -- kubectl get … -o json}: runs the given command and pushes its JSON, recording
 * the command, the context, the namespaces and the {@code resourceVersion} of every object, which say exactly which
 * state of the cluster the bytes show.
 */
@Command(name = "kubernetes", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run a kubectl get … -o json command and push its output with the objects' resourceVersions.")
final class KubernetesCapture implements Callable<Integer> {

    @ParentCommand
    CaptureCommand capture;

    @Option(names = "--context", paramLabel = "CONTEXT",
            description = "The kubeconfig context, for the record (default: the command's --context, else kubectl's"
                    + " current context).")
    String context;

    @Mixin
    ArtifactOptions artifact;

    @Mixin
    ServiceOptions service;

    @Parameters(paramLabel = "KUBECTL", arity = "1..*",
            description = "The command, after --, such as: kubectl get deployment web -n shop -o json")
    List<String> command;

    @Override
    public Integer call() throws IOException {
        Invocation invocation = capture.root.invocation;
        if (!command.contains("json") && command.stream().noneMatch(word -> word.endsWith("=json"))) {
            throw CommandFailure.usage("the command must print JSON: add -o json");
        }
        Session session = Session.open(service, invocation);
        CommandRun run = CommandRun.of(command);
        if (run.exitCode() != 0) {
            run.output().close();
            throw new CommandFailure(ExitCodes.UNAVAILABLE, command.get(0) + " exited with " + run.exitCode()
                    + "; nothing was pushed. To record the gap: evidence unavailable --source kubernetes --reason '…'");
        }
        JsonNode state;
        try (InputStream in = Files.newInputStream(run.output().path())) {
            state = Json.MAPPER.readTree(in);
        } catch (IOException e) {
            run.output().close();
            throw new CommandFailure(ExitCodes.USAGE, command.get(0) + " did not print JSON: " + e.getMessage());
        }
        KubernetesObjects objects = KubernetesObjects.of(state);
        ObjectNode known = objects.capture().put("command", Provenance.commandLine(command));
        Optional.ofNullable(context).or(() -> contextOf(command)).ifPresent(name -> known.put("context", name));
        return new Captured(run.output(), known, "kubernetes", objects.defaultName(), "application/json",
                objects.description()).push(session, artifact, invocation);
    }

    /** The command's own --context, else what the same kubectl says is current. */
    private static Optional<String> contextOf(List<String> command) {
        for (int i = 0; i < command.size(); i++) {
            if (command.get(i).equals("--context") && i + 1 < command.size()) {
                return Optional.of(command.get(i + 1));
            }
            if (command.get(i).startsWith("--context=")) {
                return Optional.of(command.get(i).substring("--context=".length()));
            }
        }
        try {
            Process process = new ProcessBuilder(List.of(command.get(0), "config", "current-context"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            process.getInputStream().transferTo(out);
            String name = out.toString(StandardCharsets.UTF_8).strip();
            return process.waitFor() == 0 && !name.isEmpty() ? Optional.of(name) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The objects of a kubectl answer: one object, or a List of them. */
    record KubernetesObjects(List<JsonNode> items, String listResourceVersion) {

        static KubernetesObjects of(JsonNode state) {
            List<JsonNode> items = new ArrayList<>();
            if (state.path("items").isArray()) {
                state.get("items").forEach(items::add);
            } else if (state.has("kind")) {
                items.add(state);
            } else {
                throw CommandFailure.usage("the command printed JSON that is neither a Kubernetes object nor a List");
            }
            return new KubernetesObjects(items, state.path("metadata").path("resourceVersion").asText(""));
        }

        ObjectNode capture() {
            ObjectNode capture = Json.object();
            ObjectNode versions = Json.object();
            Set<String> namespaces = new TreeSet<>();
            for (JsonNode item : items) {
                JsonNode metadata = item.path("metadata");
                versions.put(item.path("kind").asText() + "/" + metadata.path("name").asText(),
                        metadata.path("resourceVersion").asText());
                if (metadata.hasNonNull("namespace")) {
                    namespaces.add(metadata.get("namespace").asText());
                }
            }
            if (namespaces.size() == 1) {
                capture.put("namespace", namespaces.iterator().next());
            } else if (!namespaces.isEmpty()) {
                namespaces.forEach(capture.putArray("namespaces")::add);
            }
            if (items.size() == 1) {
                capture.put("resourceVersion", items.get(0).path("metadata").path("resourceVersion").asText());
                if ("Deployment".equals(items.get(0).path("kind").asText())) {
                    capture.put("deployment", items.get(0).path("metadata").path("name").asText());
                }
            }
            capture.set("resourceVersions", versions);
            if (!listResourceVersion.isEmpty()) {
                capture.put("listResourceVersion", listResourceVersion);
            }
            return capture;
        }

        String defaultName() {
            return items.size() == 1 ? ArtifactName.ofFileName("kubernetes-" + items.get(0).path("metadata")
                    .path("name").asText() + ".json") : "kubernetes-state";
        }

        String description() {
            return items.size() == 1 ? items.get(0).path("kind").asText() + " "
                    + items.get(0).path("metadata").path("name").asText() : items.size() + " Kubernetes objects";
        }
    }
}
