package dev.evidencestore.cli;

import dev.evidencestore.verify.BundleVerification;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code evidence bundle verify|download}: the evidence bundle of an incident. */
@Command(name = "bundle", mixinStandardHelpOptions = true,
        description = "Download an incident's evidence bundle, or verify one offline.",
        subcommands = {BundleCommand.Verify.class, BundleCommand.Download.class})
final class BundleCommand implements Callable<Integer> {

    @ParentCommand
    EvidenceCommand root;

    @Override
    public Integer call() {
        return EvidenceCommand.usage(this, root.invocation);
    }

    /**
     * Offline, with no network: the checks of tools/verify's {@code verify bundle}, run by the same library, one line
     * each ({@code PASS}, {@code FAIL} or {@code WARN}), exit 1 on any failure.
     */
    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = {"Verify an evidence bundle offline against the log's public key.",
        "Trusts nothing in the bundle but what the given keys signed. One line per check; exit 1 on any failure."})
    static final class Verify implements Callable<Integer> {

        @ParentCommand
        BundleCommand bundle;

        @Parameters(paramLabel = "BUNDLE.zip")
        Path file;

        @Option(names = "--key", required = true, paramLabel = "PUBLIC.pem",
                description = "The log's public key, obtained out of band; repeat for keys retired by a rotation.")
        List<Path> keys;

        @Override
        public Integer call() {
            Invocation invocation = bundle.root.invocation;
            return BundleVerification.run(file, keys, invocation.out(), invocation.err());
        }
    }

    /** Streams the zip to a file next to its target, moved into place only once whole. */
    @Command(name = "download", mixinStandardHelpOptions = true,
            sortOptions = false, description = "Download an incident's evidence bundle.")
    static final class Download implements Callable<Integer> {

        @ParentCommand
        BundleCommand bundle;

        @Option(names = {"-i", "--incident"}, required = true, paramLabel = "KEY")
        String incident;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE",
                description = "Where to write it (default: WS-KEY-evidence.zip in the current directory).")
        Path output;

        @Mixin
        ServiceOptions service;

        @Override
        public Integer call() throws IOException {
            Invocation invocation = bundle.root.invocation;
            Session session = Session.open(service, invocation);
            String workspace = session.workspace();
            Path target = output != null ? output : Path.of(workspace + "-" + incident + "-evidence.zip");
            Path partial = target.resolveSibling(target.getFileName() + ".part");
            session.client.send(Call.get("api/v1/workspaces/" + workspace + "/incidents/" + incident
                    + "/evidence-bundle").header("Accept", "application/zip"), body -> copy(body, partial));
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            invocation.out().println(target + " " + Files.size(target) + " bytes");
            return ExitCodes.OK;
        }

        private static long copy(InputStream body, Path file) throws IOException {
            return Files.copy(body, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
