package dev.evidencestore.api;

import dev.evidencestore.security.Roles;
import dev.evidencestore.service.IntegrityService;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** What the scrub and every re-reading of stored bytes found: damaged artifacts and what rests on them. */
@Path("/api/v1/integrity")
public class IntegrityResource {

    private final IntegrityService integrity;

    IntegrityResource(IntegrityService integrity) {
        this.integrity = integrity;
    }

    @GET
    @RolesAllowed({Roles.COLLECTOR, Roles.INVESTIGATOR, Roles.REVIEWER, Roles.READER})
    @Produces(MediaType.APPLICATION_JSON)
    public IntegrityResponse get() {
        return IntegrityResponse.of(integrity.report());
    }
}
