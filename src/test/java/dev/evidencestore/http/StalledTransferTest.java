package dev.evidencestore.http;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntPredicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that hold a connection without moving are cut off, with the real server and raw sockets: a downloader that
 * stops reading (its request slot comes back), request headers trickled a byte at a time, a request body that stops
 * arriving; a slow downloader that keeps reading is not cut; a client that leaves mid-download is no error of the
 * service, in the log or in the metrics. The deadlines are two seconds here, so that the test does not wait long.
 */
@QuarkusTest
@TestProfile(Profiles.ShortDeadlinesAndLowRate.class)
class StalledTransferTest {

    private static final int BLOB_SIZE = 8 * 1024 * 1024;
    private static final int SLOW_READ_SIZE = 2 * 1024 * 1024;
    /** Long enough for any deadline of two seconds to have passed, with its check, on a busy machine. */
    private static final long GENEROUS_MS = 15_000;

    @Inject
    AdmissionControl admission;

    private static String digest;
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLogsAndUploadOnce() {
        Logger.getLogger("").addHandler(capture);
        if (digest == null) {
            digest = Fixtures.upload(Evidence.uniqueBytes(BLOB_SIZE));
        }
    }

    @AfterEach
    void stopCapturing() {
        Logger.getLogger("").removeHandler(capture);
    }

    @Test
    void aDownloaderThatStopsReadingIsCutAndItsSlotComesBack() throws Exception {
        try (Socket client = download()) {
            readHead(client.getInputStream());
            awaitNoRequestInProgress();
            // the socket is still unread on this side: the server ended the response on its own
            long received = drain(client.getInputStream());
            assertTrue(received < BLOB_SIZE, "the body was cut short: " + received + " bytes of " + BLOB_SIZE);
        }
        assertTrue(infos().stream().anyMatch(m -> m.contains("accepted no bytes of its response for PT2S")), infos()::toString);
        assertEquals(List.of(), errors());
    }

    @Test
    void aSlowDownloaderThatKeepsReadingIsNotCut() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(SLOW_READ_SIZE);
        try (Socket client = download(Fixtures.upload(bytes))) {
            InputStream in = client.getInputStream();
            readHead(in);
            // 32 KiB every half second for two and a half times the deadline: each 256 KiB buffer the server
            // writes takes four seconds to go out, twice the deadline, yet bytes move all the time
            long received = 0;
            for (int step = 0; step < 10; step++) {
                received += in.readNBytes(32 * 1024).length;
                Thread.sleep(500);
            }
            // the rest, and no more: the connection stays open for the next request, so reading to its end would
            // wait out the socket's timeout
            received += in.readNBytes(SLOW_READ_SIZE - (int) received).length;
            assertEquals(SLOW_READ_SIZE, received, "the whole body arrived");
        }
        assertEquals(List.of(), errors());
    }

    @Test
    void trickledHeadersAreCutOffWithinTheHeaderTimeout() throws Exception {
        try (Socket client = connect()) {
            OutputStream out = client.getOutputStream();
            byte[] head = ("GET /q/health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                    + "a".repeat(200) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            long started = System.nanoTime();
            int sent = 0;
            try {
                for (; sent < head.length; sent++) {
                    out.write(head[sent]);
                    out.flush();
                    Thread.sleep(200);
                }
            } catch (IOException closed) {
                // the server closed the connection while the head trickled: what this test waits for
            }
            assertTrue(sent < head.length, "the head was cut off before it was complete");
            assertEquals(-1, readOrTimeout(client.getInputStream()), "closed without an answer");
            assertTrue(System.nanoTime() - started < GENEROUS_MS * 1_000_000L);
        }
        assertTrue(infos().stream().anyMatch(m -> m.contains("request headers were not complete within PT2S")),
                infos()::toString);
    }

    @Test
    void aConnectionThatSendsNothingIsClosed() throws Exception {
        try (Socket client = connect()) {
            assertEquals(-1, readOrTimeout(client.getInputStream()), "closed without an answer");
        }
    }

    @Test
    void aRequestBodyThatStopsArrivingEndsTheConnection() throws Exception {
        try (Socket client = connect()) {
            OutputStream out = client.getOutputStream();
            out.write(("POST /api/v1/workspaces/stalled/incidents HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + Tokens.alice() + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"key\":")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertEquals(-1, readOrTimeout(client.getInputStream()), "closed without an answer");
        }
        assertTrue(infos().stream().anyMatch(m -> m.contains("request body sent nothing for PT2S")), infos()::toString);
        awaitNoRequestInProgress();
        assertEquals(List.of(), errors());
    }

    @Test
    void aClientThatLeavesMidDownloadIsNoErrorAndNo5xx() throws Exception {
        try (Socket client = download()) {
            InputStream in = client.getInputStream();
            readHead(in);
            in.readNBytes(1024 * 1024);
            // an abrupt close, as a client killed mid-download
            client.setSoLinger(true, 0);
        }
        awaitNoRequestInProgress();
        assertEquals(List.of(), errors());
        String metrics = RestAssured.given().get("/q/metrics").then().statusCode(200).extract().asString();
        List<String> downloads = metrics.lines()
                .filter(line -> line.startsWith("http_server_requests_seconds_count") && line.contains("blobs"))
                .collect(Collectors.toList());
        assertTrue(downloads.stream().anyMatch(line -> line.contains("status=\"RESET\"")), downloads::toString);
        assertTrue(downloads.stream().noneMatch(line -> line.contains("status=\"5")), downloads::toString);
    }

    private static Socket connect() throws IOException {
        Socket client = new Socket();
        // a small window, so that the server's output backs up at once when this side stops reading
        client.setReceiveBufferSize(16 * 1024);
        client.connect(new InetSocketAddress("127.0.0.1", RestAssured.port), 5000);
        client.setSoTimeout((int) GENEROUS_MS);
        return client;
    }

    private static Socket download() throws IOException {
        return download(digest);
    }

    private static Socket download(String blob) throws IOException {
        Socket client = connect();
        OutputStream out = client.getOutputStream();
        out.write(("GET /api/v1/blobs/" + blob + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                + Tokens.alice() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return client;
    }

    /** Reads up to the end of the response head, which must be a 200. */
    private static void readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            assertTrue(b >= 0, "the response head arrived: " + head);
            head.append((char) b);
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 200 "), head::toString);
    }

    private static long drain(InputStream in) {
        long total = 0;
        byte[] buffer = new byte[64 * 1024];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                total += n;
            }
        } catch (IOException reset) {
            // a connection closed with bytes unread may end in a reset
        }
        return total;
    }

    /** -1 once the server closed the connection (or reset it); fails if it stayed open. */
    private static int readOrTimeout(InputStream in) {
        try {
            return in.read();
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection stayed open for " + GENEROUS_MS + " ms");
        } catch (IOException reset) {
            return -1;
        }
    }

    private void awaitNoRequestInProgress() throws InterruptedException {
        long deadline = System.nanoTime() + GENEROUS_MS * 1_000_000L;
        while (admission.inProgress() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(0, admission.inProgress(), "the request's slot came back");
    }

    private List<String> infos() {
        return messages(level -> level == Level.INFO.intValue());
    }

    private List<String> errors() {
        return messages(level -> level >= Level.SEVERE.intValue());
    }

    private List<String> messages(IntPredicate level) {
        return logged.stream().filter(r -> level.test(r.getLevel().intValue()))
                .map(r -> r.getLoggerName() + ": " + format(r)).collect(Collectors.toList());
    }

    private static String format(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
    }
}
