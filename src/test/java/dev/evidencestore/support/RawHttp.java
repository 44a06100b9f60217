package dev.evidencestore.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, byte for byte as given: request targets that no URI class accepts, header values
 * with any bytes, a Content-Length that lies, bodies cut short. One request per connection.
 */
public final class RawHttp {

    private final int port;

    public RawHttp(int port) {
        this.port = port;
    }

    /** What came back; {@code status} 0 when the server closed the connection without answering. */
    public record Response(int status, Map<String, String> headers, byte[] body, String failure) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * Sends {@code head} (request line and headers, without the blank line; Host and Connection are added) then
     * {@code body}. With {@code declaredLength} null, Content-Length is the body's length (none for an empty body
     * on GET/HEAD); otherwise it is declared as given, true or not. With {@code halfClose} the client signals the
     * end of its output right after the body, as a client that gave up would.
     */
    public Response send(String method, String target, Map<String, byte[]> headers, byte[] body, Long declaredLength,
                  boolean halfClose) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(30_000);
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes((method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nConnection: close\r\n").getBytes(StandardCharsets.ISO_8859_1));
            for (Map.Entry<String, byte[]> header : headers.entrySet()) {
                request.writeBytes((header.getKey() + ": ").getBytes(StandardCharsets.ISO_8859_1));
                request.writeBytes(header.getValue());
                request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
            // a negative declared length sends none: the caller's headers frame the body, or nothing does
            boolean declare = declaredLength != null ? declaredLength >= 0
                    : body.length > 0 || !(method.equals("GET") || method.equals("HEAD"));
            if (declare) {
                long length = declaredLength != null ? declaredLength : body.length;
                request.writeBytes(("Content-Length: " + length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            }
            request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            request.writeBytes(body);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.toByteArray());
                out.flush();
                if (halfClose) {
                    socket.shutdownOutput();
                }
            } catch (IOException e) {
                // the server may answer and close before reading everything (413, 414, 431): read what it said
            }
            return read(socket.getInputStream(), method.equals("HEAD"));
        } catch (SocketTimeoutException e) {
            return new Response(0, Map.of(), new byte[0], "no answer within 30 s");
        } catch (IOException e) {
            return new Response(0, Map.of(), new byte[0], e.toString());
        }
    }

    public Response send(String method, String target, Map<String, byte[]> headers, byte[] body) {
        return send(method, target, headers, body, null, false);
    }

    private static Response read(InputStream in, boolean head) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[16384];
        int n;
        try {
            while ((n = in.read(buffer)) >= 0) {
                all.write(buffer, 0, n);
            }
        } catch (IOException e) {
            if (all.size() == 0) {
                return new Response(0, Map.of(), new byte[0], e.toString());
            }
        }
        byte[] bytes = all.toByteArray();
        int end = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        if (end < 0) {
            return new Response(0, Map.of(), bytes, bytes.length == 0 ? "closed without an answer"
                    : "incomplete answer: " + new String(bytes, StandardCharsets.ISO_8859_1));
        }
        String[] lines = new String(bytes, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.merge(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim(), (a, b) -> a + ", " + b);
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
        if (!head && "chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(status, headers, body, null);
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < chunked.length) {
            int lineEnd = indexOf(chunked, "\r\n".getBytes(StandardCharsets.ISO_8859_1), at);
            if (lineEnd < 0) {
                break;
            }
            String size = new String(chunked, at, lineEnd - at, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int length = size.isEmpty() ? 0 : Integer.parseInt(size, 16);
            if (length == 0) {
                break;
            }
            int start = lineEnd + 2;
            out.write(chunked, start, Math.min(length, chunked.length - start));
            at = start + length + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        return indexOf(haystack, needle, 0);
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
