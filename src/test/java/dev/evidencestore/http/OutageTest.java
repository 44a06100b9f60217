package dev.evidencestore.http;

import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.storage.StoreWriteFailure;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutageTest {

    @Test
    void aLostDatabaseConnectionIsA503WithRetryAfterWhereverItIsWrapped() {
        for (String state : new String[] {"08001", "08006", "57P01", "57P03", "53300"}) {
            Throwable wrapped = new IllegalStateException("transaction failed",
                    new RuntimeException(new SQLException("gone", state)));
            Refusal refusal = Outage.recognise(wrapped).orElseThrow();
            assertEquals(ProblemType.DATABASE_UNAVAILABLE, refusal.type(), state);
            assertEquals(5, refusal.extensions().get("retryAfterSeconds"));
        }
    }

    private static IOException storeFailed(String message) {
        return StoreWriteFailure.of("the filesystem blob store", new IOException(message));
    }

    @Test
    void aFullDiskIs507() {
        Throwable full = new UncheckedIOException(storeFailed("No space left on device"));
        assertEquals(ProblemType.INSUFFICIENT_STORAGE, Outage.recognise(full).orElseThrow().type());
        assertEquals(ProblemType.INSUFFICIENT_STORAGE,
                Outage.recognise(storeFailed("Disk quota exceeded")).orElseThrow().type());
    }

    @Test
    void programmingErrorsStayInternalErrors() {
        assertEquals(Optional.empty(), Outage.recognise(new SQLException("syntax error", "42601")));
        assertEquals(Optional.empty(), Outage.recognise(new IllegalStateException("bug")));
        assertEquals(Optional.empty(), Outage.recognise(new IOException("Input/output error")));
    }

    @Test
    void otherWriteErrorsOfTheStoreAsk503AndFullDisks507() {
        Response failing = new ProblemMapper(null).storageFailure(storeFailed("Input/output error"), null);
        assertEquals(503, failing.getStatus());
        assertEquals("5", failing.getHeaderString("Retry-After"));
        assertEquals("https://evidence-store.dev/problems/storage-unavailable", document(failing).get("type"));
        Response full = new ProblemMapper(null).storageFailure(storeFailed("No space left on device"), null);
        assertEquals(507, full.getStatus());
        assertEquals("https://evidence-store.dev/problems/insufficient-storage", document(full).get("type"));
        assertTrue(full.getHeaderString("Retry-After") == null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> document(Response response) {
        return (Map<String, Object>) response.getEntity();
    }
}
