package dev.evidencestore.api;

import dev.evidencestore.domain.PageCursor;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Violations;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/** The {@code limit} and {@code cursor} of a paged listing, and the {@code Link: rel="next"} of its answer. */
record PageRequest(int limit, PageCursor after) {

    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 200;

    static PageRequest parse(String limit, String cursor) {
        Violations v = new Violations();
        Integer size = limit == null ? DEFAULT_LIMIT : v.parse("limit", limit, PageRequest::limit);
        PageCursor after = v.parse("cursor", cursor, PageCursor::parse);
        v.throwIfAny();
        return new PageRequest(size, after);
    }

    private static int limit(String text) {
        try {
            int value = Integer.parseInt(text);
            if (value >= 1 && value <= MAX_LIMIT) {
                return value;
            }
        } catch (NumberFormatException e) {
            // refused below, with the rule
        }
        throw Refusal.invalid("limit", "must be an integer from 1 to " + MAX_LIMIT);
    }

    /** Adds the link to the next page, when there is one. */
    static Response.ResponseBuilder linkNext(Response.ResponseBuilder response, UriInfo uri, String next) {
        return next == null ? response
                : response.link(uri.getRequestUriBuilder().replaceQueryParam("cursor", next).build(), "next");
    }
}
