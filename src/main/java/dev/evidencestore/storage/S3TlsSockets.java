package dev.evidencestore.storage;

import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.protocol.HttpContext;

import javax.net.ssl.SSLContext;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.security.NoSuchAlgorithmException;

/**
 * TLS connections to S3 whose sockets read the network in large chunks. The JDK's TLS socket reads each record from
 * the socket beneath it in two reads, its 5-byte header and then its body of at most 16 KiB: two system calls per
 * 16 KiB of a download. Reading through a buffer of {@value #READ_BUFFER} bytes takes whatever has arrived, up to
 * four records, in one call (1 GiB downloads from S3Proxy over https: 0.62-0.64x its own GET without, 0.75-0.80x
 * with, docs/operations.md). Trust and client keys are the JVM's defaults ({@code javax.net.ssl.*}) and hostnames
 * are verified, as with the SDK's own factory.
 */
final class S3TlsSockets extends SSLConnectionSocketFactory {

    static final int READ_BUFFER = 64 * 1024;

    S3TlsSockets(SSLContext context) {
        super(context, getDefaultHostnameVerifier());
    }

    static S3TlsSockets withDefaultTrust() {
        try {
            return new S3TlsSockets(SSLContext.getDefault());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no default TLS context", e);
        }
    }

    @Override
    public Socket createSocket(HttpContext context) {
        return new ReadBufferedSocket();
    }

    /** A plain socket, which the TLS socket is layered on, reading through one buffer. */
    static final class ReadBufferedSocket extends Socket {

        private InputStream in;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new BufferedInputStream(super.getInputStream(), READ_BUFFER);
            }
            return in;
        }
    }
}
