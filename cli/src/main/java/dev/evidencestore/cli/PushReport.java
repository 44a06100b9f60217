package dev.evidencestore.cli;

import java.util.List;

/**
 * What a push prints: a line {@code ID DIGEST} per artifact bound (or its JSON, one object a line), and each failure
 * on standard error; the exit status is the gravest failure's.
 */
final class PushReport {

    private final Invocation invocation;
    private final boolean json;

    PushReport(Invocation invocation, boolean json) {
        this.invocation = invocation;
        this.json = json;
    }

    int print(List<PushCommand.Outcome> outcomes) {
        int status = ExitCodes.OK;
        for (PushCommand.Outcome outcome : outcomes) {
            if (outcome.failure() != null) {
                invocation.err().println("evidence: " + outcome.label() + ": " + outcome.failure().getMessage());
                status = Math.max(status, outcome.failure().exitCode());
            } else if (json) {
                invocation.out().println(Json.write(outcome.artifact()));
            } else {
                invocation.out().println(outcome.artifact().path("id").asText() + " "
                        + outcome.artifact().path("digest").asText());
            }
        }
        return status;
    }
}
