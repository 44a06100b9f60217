package dev.evidencestore.cli;

/** The exit status of every command, the same for all of them (docs/cli.md, "Exit codes"). */
final class ExitCodes {

    static final int OK = 0;
    /** A check found a problem: a citation that is not ok, a bundle or a verification that failed. */
    static final int PROBLEM_FOUND = 1;
    static final int USAGE = 2;
    /** The service refused the request (a 4xx), with the problem's detail. */
    static final int REFUSED = 3;
    /** The service could not be reached, or answered 5xx, after every retry. */
    static final int UNAVAILABLE = 4;
    /** The service's log is not a consistent extension of what this machine saw, or its key is not the pinned one. */
    static final int INCONSISTENT = 5;

    private ExitCodes() {
    }
}
