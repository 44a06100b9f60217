package dev.evidencestore.http;

import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
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

    @Test
    void anExhaustedPoolIsBusyNotAnOutage() {
        Refusal refusal = Outage.recognise(new SQLException("Sorry, acquisition timeout!")).orElseThrow();
        assertEquals(ProblemType.SERVICE_BUSY, refusal.type());
        assertEquals(5, refusal.extensions().get("retryAfterSeconds"));
    }

    @Test
    void aFullDiskIs507() {
        Throwable full = new UncheckedIOException(new IOException("No space left on device"));
        assertEquals(ProblemType.INSUFFICIENT_STORAGE, Outage.recognise(full).orElseThrow().type());
        assertEquals(ProblemType.INSUFFICIENT_STORAGE,
                Outage.recognise(new IOException("Disk quota exceeded")).orElseThrow().type());
    }

    @Test
    void programmingErrorsStayInternalErrors() {
        assertEquals(Optional.empty(), Outage.recognise(new SQLException("syntax error", "42601")));
        assertEquals(Optional.empty(), Outage.recognise(new IllegalStateException("bug")));
        assertEquals(Optional.empty(), Outage.recognise(new IOException("Input/output error")));
    }

    @Test
    void otherWriteErrorsOfTheStoreAsk503AndFullDisks507() {
        Response failing = new ProblemMapper().storageFailure(new IOException("Input/output error"));
        assertEquals(503, failing.getStatus());
        assertEquals("5", failing.getHeaderString("Retry-After"));
        assertEquals("https://evidence-store.dev/problems/storage-unavailable", document(failing).get("type"));
        Response full = new ProblemMapper().storageFailure(new IOException("No space left on device"));
        assertEquals(507, full.getStatus());
        assertEquals("https://evidence-store.dev/problems/insufficient-storage", document(full).get("type"));
        assertTrue(full.getHeaderString("Retry-After") == null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> document(Response response) {
        return (Map<String, Object>) response.getEntity();
    }
}
