package dev.evidencestore.cli;

import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.NoteKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code evidence log status|check|pin|forget}: what the witness remembers of each service's log. */
@Command(name = "log", mixinStandardHelpOptions = true,
        description = "What this machine remembers of each service's transparency log.",
        subcommands = {LogCommand.Status.class, LogCommand.Check.class, LogCommand.Pin.class, LogCommand.Forget.class})
final class LogCommand implements Callable<Integer> {

    @ParentCommand
    EvidenceCommand root;

    @Override
    public Integer call() {
        return EvidenceCommand.usage(this, root.invocation);
    }

    WitnessState state() {
        return new WitnessState(root.invocation.stateDirectory());
    }

    /** Offline: every service and origin remembered, its pinned key and its last checkpoint. */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Show every log remembered: service, origin, pinned key, last checkpoint.")
    static final class Status implements Callable<Integer> {

        @ParentCommand
        LogCommand log;

        @Override
        public Integer call() {
            PrintStream out = log.root.invocation.out();
            List<WitnessRecord> records = log.state().all();
            if (records.isEmpty()) {
                out.println("no log remembered yet under " + log.state().root());
            }
            for (WitnessRecord record : records) {
                out.println(record.service() + " " + record.origin());
                out.println("  key:        " + record.keyId().orElse("none pinned") + " (pinned "
                        + record.pinnedHow().strip() + ")");
                Optional<Checkpoint> checkpoint = record.checkpoint();
                out.println("  checkpoint: " + checkpoint.map(seen -> seen.size() + " entries, root "
                        + Base64.getEncoder().encodeToString(seen.rootHash())).orElse("none")
                        + (checkpoint.isPresent() ? " (seen " + record.rememberedAt() + ")" : ""));
            }
            return ExitCodes.OK;
        }
    }

    /** Only the witness: fetch the latest checkpoint and check it against what is remembered. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Fetch the service's latest checkpoint and check it is consistent.")
    static final class Check implements Callable<Integer> {

        @ParentCommand
        LogCommand log;

        @Mixin
        ServiceOptions service;

        @Override
        public Integer call() {
            Session session = Session.open(service, log.root.invocation);
            log.root.invocation.out().println("the log at " + session.client.base() + " is consistent with what"
                    + " this machine saw");
            return ExitCodes.OK;
        }
    }

    /** Replaces a pinned key, after an announced rotation; the remembered checkpoint stays and is still checked. */
    @Command(name = "pin", mixinStandardHelpOptions = true,
            description = "Pin a log's public key explicitly (after an announced key rotation).")
    static final class Pin implements Callable<Integer> {

        @ParentCommand
        LogCommand log;

        @Option(names = "--url", required = true, paramLabel = "URL")
        String url;

        @Option(names = "--origin", required = true, paramLabel = "ORIGIN", description = "The log's origin line.")
        String origin;

        @Option(names = "--key", required = true, paramLabel = "PUBLIC.pem")
        Path key;

        @Override
        public Integer call() throws IOException {
            PublicKey publicKey = Ed25519Keys.readPublicPem(Files.readString(key));
            log.state().pin(Session.baseUrl(url), origin, publicKey, "with evidence log pin");
            log.root.invocation.out().println("pinned " + NoteKey.of(origin, publicKey).verifierKey() + " for "
                    + origin + " at " + Session.baseUrl(url));
            return ExitCodes.OK;
        }
    }

    /**
     * Forgets the remembered checkpoint of a log (the pinned key stays): only after the operator announced a restore
     * from backup and the new checkpoint they published was compared with the one the service now serves.
     */
    @Command(name = "forget", mixinStandardHelpOptions = true,
            description = {"Forget the checkpoint remembered for a log, keeping its pinned key.",
        "Only after the operator announced a restore and you compared the checkpoint they published."})
    static final class Forget implements Callable<Integer> {

        @ParentCommand
        LogCommand log;

        @Option(names = "--url", required = true, paramLabel = "URL")
        String url;

        @Option(names = "--origin", required = true, paramLabel = "ORIGIN")
        String origin;

        @Override
        public Integer call() {
            boolean forgotten = log.state().forgetCheckpoint(Session.baseUrl(url), origin);
            log.root.invocation.out().println(forgotten ? "forgot the checkpoint of " + origin + " at "
                    + Session.baseUrl(url) + "; the next command remembers the one the service serves then"
                    : "no checkpoint of " + origin + " at " + Session.baseUrl(url) + " was remembered");
            return ExitCodes.OK;
        }
    }
}
