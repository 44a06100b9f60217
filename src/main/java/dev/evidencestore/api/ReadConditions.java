package dev.evidencestore.api;

import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * The headers that shape a read of stored bytes (RFC 9110 sections 13 and 14): a byte range, the entity tag it holds
 * for, and the tags the client has already.
 */
public class ReadConditions {

    @HeaderParam("Range")
    String range;

    @HeaderParam("If-Range")
    String ifRange;

    @HeaderParam(HttpHeaders.IF_NONE_MATCH)
    String ifNoneMatch;
}
