package dev.evidencestore.api;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.http.ClientDownload;
import dev.evidencestore.http.ContentDigestHeader;
import dev.evidencestore.http.Problems;
import dev.evidencestore.service.BlobContent;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;

import java.io.InputStream;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The HTTP form of stored bytes, shared by blobs and artifact content: strong ETag from the digest, RFC 9530
 * {@code Repr-Digest}, conditional GET and single byte ranges, streamed without holding the bytes in memory. Bytes
 * found damaged are refused before this (evidence-damaged); a whole blob is also hashed as it streams, and bytes
 * that turn out damaged cut the transfer short before its last bytes, so no client gets a clean 200 of wrong bytes.
 */
final class BlobRepresentation {

    /**
     * Content-addressed bytes never change, so a client may keep them for ever; shared caches may not, since the
     * request carried the caller's right to see them.
     */
    private static final String IMMUTABLE = "private, max-age=31536000, immutable";
    private static final int BUFFER = 256 * 1024;

    private BlobRepresentation() {
    }

    static Response get(BlobContent content, ReadConditions conditions) {
        return respond(content, conditions.range, conditions.ifRange, conditions.ifNoneMatch, true);
    }

    static Response head(BlobContent content, ReadConditions conditions) {
        return respond(content, conditions.range, conditions.ifRange, conditions.ifNoneMatch, false);
    }

    private static Response respond(BlobContent content, String rangeHeader, String ifRange, String ifNoneMatch,
                                    boolean withBody) {
        String etag = etag(content.digest());
        if (EntityTags.matches(ifNoneMatch, etag)) {
            return common(Response.notModified(), content, etag).build();
        }
        Optional<ByteRange.Request> requested = ifRange == null || ifRange.strip().equals(etag)
                ? ByteRange.parse(rangeHeader) : Optional.empty();
        if (requested.isEmpty()) {
            return body(Response.ok(), content, etag, 0, content.size(), withBody).build();
        }
        Optional<ByteRange> range = requested.get().resolve(content.size());
        if (range.isEmpty()) {
            Refusal refusal = new Refusal(ProblemType.RANGE_NOT_SATISFIABLE,
                    "the blob has " + content.size() + " bytes").with("size", content.size());
            return Response.fromResponse(Problems.response(refusal))
                    .header("Content-Range", "bytes */" + content.size()).build();
        }
        ByteRange r = range.get();
        return body(Response.status(Response.Status.PARTIAL_CONTENT), content, etag, r.first(), r.length(), withBody)
                .header("Content-Range", r.contentRange(content.size())).build();
    }

    private static Response.ResponseBuilder body(Response.ResponseBuilder response, BlobContent content, String etag,
                                                 long offset, long length, boolean withBody) {
        common(response, content, etag).type(content.mediaType()).header(HttpHeaders.CONTENT_LENGTH, length);
        if (withBody) {
            response.entity(stream(content, offset, length));
        }
        return response;
    }

    private static Response.ResponseBuilder common(Response.ResponseBuilder response, BlobContent content,
                                                   String etag) {
        headers(content.digest(), etag, response::header);
        return response;
    }

    /** Puts the headers every answer of stored bytes carries, a 304 too, whichever way it is served. */
    static void headers(Digest digest, String etag, BiConsumer<String, String> put) {
        put.accept(HttpHeaders.ETAG, etag);
        put.accept("Repr-Digest", ContentDigestHeader.format(digest));
        put.accept("Accept-Ranges", "bytes");
        put.accept(HttpHeaders.CACHE_CONTROL, IMMUTABLE);
        // evidence may be HTML or SVG from anywhere: never let it run as this origin's page
        put.accept("X-Content-Type-Options", "nosniff");
        put.accept("Content-Security-Policy", "sandbox; default-src 'none'");
    }

    static String etag(Digest digest) {
        return "\"" + digest + "\"";
    }

    private static StreamingOutput stream(BlobContent content, long offset, long length) {
        boolean whole = offset == 0 && length == content.size();
        return ClientDownload.of(download -> {
            try (InputStream in = whole ? content.openChecked() : content.open(offset, length)) {
                // small evidence is most of the reads: a buffer no larger than the body
                byte[] buffer = new byte[(int) Math.max(1, Math.min(BUFFER, length))];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    download.write(buffer, 0, n);
                }
            }
        });
    }
}
