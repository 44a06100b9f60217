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

    /** A finding that does not fail the run, such as a bundle that carries another key than the one trusted. */
    void warn(String check, String detail) {
        out.println("WARN " + check + ": " + detail);
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
