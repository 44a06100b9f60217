package dev.evidencestore.web;

import dev.evidencestore.http.PageHeaders;
import dev.evidencestore.http.RequestPipeline;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Outside the API, a browser that asks for HTML gets its refusals as a small page rather than a problem document:
 * the same status and headers (a 401 keeps {@code WWW-Authenticate}), the problem's title and detail. Whoever asks
 * for anything else keeps the problem document. Every HTML page also gets the {@link PageHeaders}: the pages need
 * no script, no frame and no foreign resource.
 */
public class HtmlErrors {

    private static final Logger LOG = Logger.getLogger(HtmlErrors.class);
    private static final Pattern NOT_PAGES = Pattern.compile("^/+(api|q)(/.*)?$");
    private static final MediaType HTML = MediaType.valueOf(Html.MEDIA_TYPE);

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance error(int status, String title, String detail, boolean signIn);
    }

    @ServerResponseFilter(priority = RequestPipeline.PAGES)
    public void pages(ContainerRequestContext request, ContainerResponseContext response) {
        if (NOT_PAGES.matcher(request.getUriInfo().getPath()).matches()) {
            return;
        }
        if (isProblem(response.getMediaType()) && wantsHtml(request)
                && response.getEntity() instanceof Map<?, ?> problem) {
            try {
                int status = response.getStatus();
                String html = Templates.error(status, text(problem.get("title"), "Error"),
                        text(problem.get("detail"), ""), status == 401).render();
                response.setEntity(html, null, HTML);
                response.getHeaders().putSingle("Cache-Control", "no-store");
            } catch (RuntimeException e) {
                // the problem document still says what went wrong
                LOG.error("could not render an error page", e);
            }
        }
        if (response.getMediaType() != null && HTML.isCompatible(response.getMediaType())) {
            PageHeaders.addTo(response.getHeaders()::putSingle);
        }
    }

    private static boolean isProblem(MediaType type) {
        return type != null && "application".equals(type.getType()) && "problem+json".equals(type.getSubtype());
    }

    private static boolean wantsHtml(ContainerRequestContext request) {
        return request.getAcceptableMediaTypes().stream()
                .anyMatch(type -> "text".equals(type.getType()) && "html".equals(type.getSubtype()));
    }

    private static String text(Object value, String otherwise) {
        return value == null ? otherwise : value.toString();
    }
}
