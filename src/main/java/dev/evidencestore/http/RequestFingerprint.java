package dev.evidencestore.http;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Refusal;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.apache.commons.codec.digest.DigestUtils;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What makes a retry the same request as the first: the same method, path and body. The same key with another
 * fingerprint is a client reusing a key for something else, refused with 422.
 */
record RequestFingerprint(String value) {

    /**
     * The fingerprint of a request about to reach its resource, whose body is put back for the resource to read.
     * Empty for a JSON body too large for any request: the resource refuses it whatever its key, storing nothing.
     */
    static Optional<RequestFingerprint> of(ContainerRequestContext request, Idempotent idempotent, long maxJsonBody)
            throws IOException {
        String method = request.getMethod();
        String path = request.getUriInfo().getPath();
        if (idempotent.streamedBody()) {
            return Optional.of(ofUpload(method, path, declaredDigest(request),
                    request.getHeaderString(HttpHeaders.CONTENT_LENGTH)));
        }
        return readBody(request, maxJsonBody).map(body -> of(method, path, body));
    }

    /** A request whose whole body was read: JSON documents, which are small. */
    static RequestFingerprint of(String method, String path, byte[] body) {
        return of(method + " " + path + "\nbody " + DigestUtils.sha256Hex(body));
    }

    /**
     * An upload, which streams and is never held: it is recognised by what it declares, its digest (in the path, or
     * the {@code sha-256} of {@code Content-Digest}, null when it sent none) and its {@code Content-Length} (null
     * when chunked), not by the bytes it turns out to carry. Bytes that disagree with a declared digest are refused by
     * the upload itself, so a replay names what the retry declared.
     */
    static RequestFingerprint ofUpload(String method, String path, Digest contentDigest, String contentLength) {
        return of(method + " " + path + "\ncontent-digest " + contentDigest + "\ncontent-length " + contentLength);
    }

    private static RequestFingerprint of(String description) {
        byte[] bytes = description.getBytes(StandardCharsets.UTF_8);
        return new RequestFingerprint(Digest.PREFIX + DigestUtils.sha256Hex(bytes));
    }

    /**
     * The {@code sha-256} of {@code Content-Digest}. An upload with a key must declare its digest, there or in its
     * path: a retry of other bytes of the same length could not be told apart, and would be answered another blob.
     */
    private static Digest declaredDigest(ContainerRequestContext request) {
        Optional<Digest> declared = ContentDigestHeader.sha256(request.getHeaderString(ContentDigestHeader.NAME));
        if (declared.isEmpty() && request.getUriInfo().getPathParameters().getFirst("digest") == null) {
            throw Refusal.invalid(ContentDigestHeader.NAME, "is required with an Idempotency-Key when the digest is "
                    + "not in the path: a retry is recognised by the digest it declares");
        }
        return declared.orElse(null);
    }

    /**
     * Reads the body and puts it back: the one copy of it, which admission counts. Empty when it exceeds what any
     * JSON request may be; the resource then refuses it as it reads on.
     */
    private static Optional<byte[]> readBody(ContainerRequestContext request, long maxJsonBody) throws IOException {
        InputStream in = request.getEntityStream();
        if (in == null) {
            return Optional.of(new byte[0]);
        }
        long declared = declaredLength(request);
        if (declared >= 0 && declared <= maxJsonBody) {
            // read into one array of the declared size: readNBytes(int) would hold the body twice as it gathers it
            byte[] body = new byte[(int) declared];
            if (in.readNBytes(body, 0, body.length) < body.length) {
                throw new IOException("the body ended before its Content-Length");
            }
            request.setEntityStream(new ByteArrayInputStream(body));
            return Optional.of(body);
        }
        byte[] head = in.readNBytes((int) maxJsonBody + 1);
        if (head.length > maxJsonBody) {
            request.setEntityStream(new SequenceInputStream(new ByteArrayInputStream(head), in));
            return Optional.empty();
        }
        request.setEntityStream(new ByteArrayInputStream(head));
        return Optional.of(head);
    }

    private static long declaredLength(ContainerRequestContext request) {
        try {
            String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
            return length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
