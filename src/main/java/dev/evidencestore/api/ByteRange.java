package dev.evidencestore.api;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A single {@code Range: bytes=…} request (RFC 9110 section 14). Anything else (other units, several ranges,
 * bad syntax) is ignored, as the RFC allows, and the whole representation is sent.
 */
record ByteRange(long first, long last) {

    private static final Pattern SINGLE = Pattern.compile("bytes=(\\d{0,18})-(\\d{0,18})");

    long length() {
        return last - first + 1;
    }

    String contentRange(long size) {
        return "bytes " + first + "-" + last + "/" + size;
    }

    /** Empty when the header asks for no single byte range this service serves. */
    static Optional<Request> parse(String header) {
        if (header == null) {
            return Optional.empty();
        }
        Matcher m = SINGLE.matcher(header.strip());
        if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
            return Optional.empty();
        }
        Long first = m.group(1).isEmpty() ? null : Long.parseLong(m.group(1));
        Long last = m.group(2).isEmpty() ? null : Long.parseLong(m.group(2));
        if (first != null && last != null && last < first) {
            return Optional.empty();
        }
        return Optional.of(new Request(first, last));
    }

    /** A parsed range request; {@code first == null} is a suffix range of the last {@code last} bytes. */
    record Request(Long first, Long last) {

        /** The range within a representation of {@code size} bytes, or empty when it is unsatisfiable. */
        Optional<ByteRange> resolve(long size) {
            if (first == null) {
                return last == 0 || size == 0 ? Optional.empty()
                        : Optional.of(new ByteRange(Math.max(0, size - last), size - 1));
            }
            if (first >= size) {
                return Optional.empty();
            }
            long end = last == null ? size - 1 : Math.min(last, size - 1);
            return Optional.of(new ByteRange(first, end));
        }
    }
}
