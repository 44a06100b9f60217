package dev.evidencestore.verify;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The offline verifier, run by tools/verify/verify: {@code verify SUBCOMMAND ARGS...}. Each check prints one line;
 * the exit status is 0 when every check passed, 1 when one failed, 2 for a usage error.
 */
public final class Verify {

    private Verify() {
    }

    /**
     * The subcommands by name. A new one implements {@link Command} and is added here; the usage message lists what
     * is here.
     */
    static Map<String, Command> commands() {
        Map<String, Command> commands = new LinkedHashMap<>();
        commands.put("checkpoint", new CheckpointCommand());
        commands.put("bundle", new BundleCommand());
        return commands;
    }

    public static void main(String[] arguments) {
        System.exit(run(List.of(arguments), System.out, System.err));
    }

    static int run(List<String> arguments, PrintStream out, PrintStream err) {
        Map<String, Command> commands = commands();
        if (arguments.isEmpty() || arguments.get(0).equals("-h") || arguments.get(0).equals("--help")) {
            usage(commands, arguments.isEmpty() ? err : out);
            return arguments.isEmpty() ? Command.USAGE : Command.OK;
        }
        Command command = commands.get(arguments.get(0));
        if (command == null) {
            err.println("verify: unknown subcommand \"" + arguments.get(0) + "\"");
            usage(commands, err);
            return Command.USAGE;
        }
        return command.run(arguments.subList(1, arguments.size()), out, err);
    }

    private static void usage(Map<String, Command> commands, PrintStream to) {
        to.println("usage:");
        commands.values().forEach(command -> to.println("  verify " + command.usage()));
        to.println("exit status: 0 every check passed, 1 a check failed, 2 usage error");
    }
}
