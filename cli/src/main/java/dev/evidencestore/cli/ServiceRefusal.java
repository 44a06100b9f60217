package dev.evidencestore.cli;

/** The service answered 4xx: the request was understood and refused, so retrying it would not help. */
final class ServiceRefusal extends CommandFailure {

    private static final long serialVersionUID = 1L;

    private final transient Problem problem;

    ServiceRefusal(Problem problem) {
        super(ExitCodes.REFUSED, "refused: " + problem);
        this.problem = problem;
    }

    Problem problem() {
        return problem;
    }
}
