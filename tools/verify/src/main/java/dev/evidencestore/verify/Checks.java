package dev.evidencestore.verify;

import java.io.PrintStream;

/** The lines a verification prints, one a check, and the exit status they add up to. */
final class Checks {

    private final PrintStream out;
    private boolean failed;

    Checks(PrintStream out) {
        this.out = out;
    }

    void pass(String check, String detail) {
        out.println("PASS " + check + ": " + detail);
    }

    /** Records a failure; its status is returned for a check that ends the run. */
    int fail(String check, String detail) {
        failed = true;
        out.println("FAIL " + check + ": " + detail);
        return Command.FAILED;
    }

    int status() {
        return failed ? Command.FAILED : Command.OK;
    }
}
