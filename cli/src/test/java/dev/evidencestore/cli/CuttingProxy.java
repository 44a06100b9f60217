package dev.evidencestore.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of the service that cuts one connection, once: either mid-upload, after some bytes of the
 * body of the first request whose request line starts with a prefix (the service sees an interrupted upload), or
 * mid-answer, after forwarding the whole of such a request but before a byte of its answer reaches the client (the
 * service did the write; the client cannot know). Everything else passes through untouched.
 */
final class CuttingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final URI upstream;
    private final String requestLine;
    private final long cutAfterRequestBytes;
    private final boolean cutAnswer;
    private final AtomicBoolean cut = new AtomicBoolean();
    private final AtomicInteger connections = new AtomicInteger();

    private CuttingProxy(URI upstream, String requestLine, long cutAfterRequestBytes, boolean cutAnswer)
            throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.upstream = upstream;
        this.requestLine = requestLine;
        this.cutAfterRequestBytes = cutAfterRequestBytes;
        this.cutAnswer = cutAnswer;
        Thread acceptor = new Thread(this::accept, "cutting-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Cuts the first request starting with {@code requestLine} once {@code bytes} more bytes went upstream. */
    static CuttingProxy midRequest(URI upstream, String requestLine, long bytes) throws IOException {
        return new CuttingProxy(upstream, requestLine, bytes, false);
    }

    /** Cuts the first request starting with {@code requestLine} before its answer reaches the client. */
    static CuttingProxy beforeAnswer(URI upstream, String requestLine) throws IOException {
        return new CuttingProxy(upstream, requestLine, -1, true);
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    boolean hasCut() {
        return cut.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(upstream.getHost(), upstream.getPort());
                Connection connection = new Connection(client, server);
                connections.incrementAndGet();
                start(() -> connection.pumpRequests(), "proxy-up");
                start(() -> connection.pumpAnswers(), "proxy-down");
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void start(Runnable pump, String name) {
        Thread thread = new Thread(pump, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }

    /** One client connection and its upstream twin. */
    private final class Connection {

        private final Socket client;
        private final Socket server;
        /** Set when the marked request went up: its answer is the next thing to come down. */
        private volatile boolean answerMarked;

        Connection(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void pumpRequests() {
            byte[] buffer = new byte[16 * 1024];
            StringBuilder recent = new StringBuilder();
            long counting = -1;
            try (InputStream in = client.getInputStream(); OutputStream out = server.getOutputStream()) {
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                    if (counting < 0 && !cut.get()) {
                        recent.append(new String(buffer, 0, read, StandardCharsets.ISO_8859_1));
                        if (recent.indexOf(requestLine) >= 0) {
                            if (cutAnswer) {
                                answerMarked = true;
                            } else {
                                counting = 0;
                            }
                        }
                        if (recent.length() > 4096) {
                            recent.delete(0, recent.length() - 512);
                        }
                    }
                    if (counting >= 0 && !cut.get()) {
                        long allowed = Math.max(0, cutAfterRequestBytes - counting);
                        if (allowed < read) {
                            out.write(buffer, 0, (int) allowed);
                            out.flush();
                            cutBoth();
                            return;
                        }
                        counting += read;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                closeQuietly();
            }
        }

        void pumpAnswers() {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = server.getInputStream(); OutputStream out = client.getOutputStream()) {
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                    if (answerMarked && cut.compareAndSet(false, true)) {
                        closeQuietly();
                        return;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                closeQuietly();
            }
        }

        /** A reset rather than an orderly close, as when a link or a middlebox drops the connection. */
        private void cutBoth() {
            cut.set(true);
            try {
                server.setSoLinger(true, 0);
                client.setSoLinger(true, 0);
            } catch (IOException e) {
                // closed already: nothing left to reset
            }
            closeQuietly();
        }

        private void closeQuietly() {
            try {
                client.close();
            } catch (IOException e) {
                // already closed
            }
            try {
                server.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }
}
