package dev.evidencestore.web;

import dev.evidencestore.EvidenceConfig;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Signing in to the pages and out again, when {@code evidence.web.sign-in.enabled} is on; without it neither path
 * exists. quarkus-oidc does the work before either method runs (application.properties pins it to these paths): a
 * request to {@code /sign-in} without a session is sent to the identity provider, and comes back here signed in;
 * a request to {@code /sign-out} with a session ends it and goes on to the provider's logout. What is left for these
 * methods is where the browser goes next, always a page of this service.
 */
@Path("/")
public class SignIn {

    static final String HOME = "/";

    private final boolean enabled;

    SignIn(EvidenceConfig config) {
        this.enabled = config.web().signIn().enabled();
    }

    /** Signed in: back to the page the sign-in started from ({@code to}), or home. */
    @GET
    @PermitAll
    @Path("sign-in")
    public Response signIn(@QueryParam("to") String to) {
        return seeOther(localPage(to));
    }

    /** Reached only without a session to end: nothing to do but go home. */
    @GET
    @PermitAll
    @Path("sign-out")
    public Response signOut() {
        return seeOther(HOME);
    }

    private Response seeOther(String page) {
        if (!enabled) {
            throw new NotFoundException();
        }
        // a path, not a URL made from the request's Host header
        return Response.status(Response.Status.SEE_OTHER).header(HttpHeaders.LOCATION, page)
                .header(HttpHeaders.CACHE_CONTROL, "no-store").build();
    }

    /**
     * {@code to} when it is a path of this service, else home: a link to {@code /sign-in?to=https://evil.example}
     * (or {@code //evil.example}) must not send a freshly signed-in person to another site.
     */
    static String localPage(String to) {
        if (to == null || !to.startsWith("/") || to.startsWith("//") || to.contains("\\")) {
            return HOME;
        }
        try {
            URI page = new URI(to);
            return page.getScheme() == null && page.getRawAuthority() == null ? page.toASCIIString() : HOME;
        } catch (URISyntaxException e) {
            return HOME;
        }
    }
}
