package dev.evidencestore.http;

import dev.evidencestore.domain.Refusal;
import jakarta.ws.rs.WebApplicationException;

/**
 * A path or query parameter that does not parse. A {@link WebApplicationException}, because JAX-RS turns any other
 * exception of a parameter converter into a 404 or a bare 400; {@link ProblemMapper} answers the refusal it carries.
 */
public final class InvalidParameter extends WebApplicationException {

    private final transient Refusal refusal;

    InvalidParameter(Refusal refusal) {
        super(refusal.getMessage(), refusal, 400);
        this.refusal = refusal;
    }

    public Refusal refusal() {
        return refusal;
    }
}
