package dev.evidencestore.verify;

import java.io.PrintStream;
import java.util.List;

/** One subcommand of {@link Verify}: it reads its own arguments and answers an exit status. */
interface Command {

    int OK = 0;
    int FAILED = 1;
    int USAGE = 2;

    /** The synopsis line of the usage message. */
    String usage();

    int run(List<String> arguments, PrintStream out, PrintStream err);
}
