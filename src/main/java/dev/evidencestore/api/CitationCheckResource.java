package dev.evidencestore.api;

import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.CitationCheckService;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Checks the citations of a postmortem written anywhere (Confluence, a Git repository) against the store. */
@Path("/api/v1/citations/check")
public class CitationCheckResource {

    /** Postmortems are pages of prose; a megabyte is far more than any, and bounds the work of one request. */
    static final int MAX_BYTES = 1024 * 1024;

    private final CitationCheckService citations;

    CitationCheckResource(CitationCheckService citations) {
        this.citations = citations;
    }

    @POST
    @RolesAllowed({Roles.READER, Roles.COLLECTOR, Roles.INVESTIGATOR, Roles.REVIEWER})
    @Consumes({"text/markdown", MediaType.TEXT_PLAIN})
    @Produces(MediaType.APPLICATION_JSON)
    public CitationCheckResponse check(InputStream body) throws IOException {
        byte[] text = body.readNBytes(MAX_BYTES + 1);
        if (text.length > MAX_BYTES) {
            throw new Refusal(ProblemType.TEXT_TOO_LARGE, "texts to check are limited to " + MAX_BYTES + " bytes")
                    .with("maxSize", MAX_BYTES);
        }
        String content = new String(text, StandardCharsets.UTF_8);
        if (content.isBlank()) {
            throw Refusal.invalid("body", "is empty; send the Markdown or plain text to check");
        }
        return CitationCheckResponse.of(citations.check(content));
    }
}
