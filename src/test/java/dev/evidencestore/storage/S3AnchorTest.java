package dev.evidencestore.storage;

import dev.evidencestore.support.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.evidencestore.support.S3ProxyServer.BUCKET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The S3 anchor on a real S3 API (S3Proxy over files). Not every S3-compatible store honours {@code If-None-Match}
 * (S3Proxy before 4 did not), so the condition is asserted as sent, on the requests themselves, and the refusal to
 * overwrite is the anchor's own look-up first.
 */
class S3AnchorTest {

    private static final String PREFIX = "checkpoints/";

    private static S3ProxyServer server;
    private static S3Client s3;
    private static final List<String> PUTS = new CopyOnWriteArrayList<>();
    private static S3Anchor anchor;

    @BeforeAll
    static void startS3() {
        server = S3ProxyServer.fresh("anchor");
        ExecutionInterceptor recorder = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.httpRequest().method() == SdkHttpMethod.PUT) {
                    PUTS.add(context.httpRequest().encodedPath() + " If-None-Match: "
                            + context.httpRequest().firstMatchingHeader("If-None-Match").orElse("none"));
                }
            }
        };
        s3 = server.client();
        anchor = new S3Anchor(S3ProxyServer.clientBuilder(server.endpoint())
                .overrideConfiguration(c -> c.addExecutionInterceptor(recorder)).build(), BUCKET, PREFIX);
    }

    @AfterAll
    static void stopS3() {
        anchor.close();
        s3.close();
        server.close();
    }

    @Test
    void writesEachNoteOnceWithIfNoneMatchAndReadsItBack() throws IOException {
        byte[] note = "a note\n".getBytes(StandardCharsets.UTF_8);
        PUTS.clear();
        anchor.publish("checkpoint-1", note);
        assertEquals(List.of("/" + BUCKET + "/" + PREFIX + "checkpoint-1 If-None-Match: *"), PUTS);
        assertArrayEquals(note, s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(PREFIX + "checkpoint-1")).asByteArray());
        assertArrayEquals(note, anchor.read("checkpoint-1"));
        assertTrue(anchor.holds("checkpoint-1"));
        assertFalse(anchor.holds("checkpoint-2"));

        anchor.publish("checkpoint-1", note);
        assertEquals(1, PUTS.size(), "the same note again is found there and not sent");
        FileAlreadyExistsException refused = assertThrows(FileAlreadyExistsException.class,
                () -> anchor.publish("checkpoint-1", "another note\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals("s3://" + BUCKET + "/" + PREFIX + "checkpoint-1", refused.getFile());
        assertEquals(1, PUTS.size(), "nothing is sent over a published note");
        assertArrayEquals(note, anchor.read("checkpoint-1"));
    }

    @Test
    void listsTheNamesUnderItsPrefixInPages() throws IOException {
        for (String name : List.of("list-c", "list-a", "list-b")) {
            anchor.publish(name, name.getBytes(StandardCharsets.UTF_8));
        }
        s3.putObject(b -> b.bucket(BUCKET).key("elsewhere/list-0"), RequestBody.fromString("not ours"));
        assertEquals(List.of("list-a", "list-b"), anchor.names("list-", 2));
        assertEquals(List.of("list-c"), anchor.names("list-b", 2));
    }

    @Test
    void refusesToReadWhatIsTooLargeToBeANote() {
        s3.putObject(b -> b.bucket(BUCKET).key(PREFIX + "large"), RequestBody.fromBytes(new byte[Anchor.MAX_NOTE + 1]));
        IOException refused = assertThrows(IOException.class, () -> anchor.read("large"));
        assertTrue(refused.getMessage().contains("larger than"), refused.getMessage());
    }
}
