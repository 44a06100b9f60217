package dev.evidencestore.http;

import dev.evidencestore.domain.ProblemType;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Set;

/**
 * Refuses with 415, on the operations marked {@link NoFormBodies}, the three content types that an HTML form or a
 * script on any other site can make a visitor's browser send without asking first (the CORS-safelisted request
 * content types of the Fetch standard). Operations with a JSON body take JSON only already, which a browser sends
 * cross-site only after a preflight this service never grants.
 */
public class FormBodies {

    private static final Set<String> SAFELISTED = Set.of("application/x-www-form-urlencoded", "multipart/form-data",
            "text/plain");

    @ServerRequestFilter(priority = RequestPipeline.FORM_BODIES)
    public Response refuse(ContainerRequestContext request, ResourceInfo resource) {
        Method method = resource.getResourceMethod();
        NoFormBodies marked = method == null ? null : method.getAnnotation(NoFormBodies.class);
        String type = request.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (marked == null || type == null || marked.bodiless() && !hasBody(request)) {
            return null;
        }
        // the MIME type's essence, as the Fetch standard compares it: parameters and case do not count
        String essence = type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!SAFELISTED.contains(essence)) {
            return null;
        }
        return Problems.response(ProblemType.UNSUPPORTED_MEDIA_TYPE, "a body of type " + essence
                + " is what a form on any site can make a browser send; send application/octet-stream, or no body");
    }

    private static boolean hasBody(ContainerRequestContext request) {
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        return request.getHeaderString("Transfer-Encoding") != null || length != null && !length.strip().equals("0");
    }
}
