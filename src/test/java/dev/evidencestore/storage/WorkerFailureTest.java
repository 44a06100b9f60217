package dev.evidencestore.storage;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WorkerFailureTest {

    @Test
    void anIOExceptionIsTheOneToThrow() {
        IOException io = new IOException("disk gone");
        assertSame(io, WorkerFailure.rethrown(io, "a block could not be written"));
    }

    @Test
    void anUncheckedFailureIsThrownAsItIs() {
        IllegalStateException bug = new IllegalStateException("bug");
        assertSame(bug, assertThrows(IllegalStateException.class,
                () -> WorkerFailure.rethrown(bug, "a part could not be sent")));
        AssertionError error = new AssertionError("broken");
        assertSame(error, assertThrows(AssertionError.class,
                () -> WorkerFailure.rethrown(error, "a part could not be sent")));
    }

    @Test
    void anyOtherCheckedFailureIsWrappedWithWhatFailed() {
        SQLException sql = new SQLException("no connection");
        IOException wrapped = WorkerFailure.rethrown(sql, "a part could not be sent");
        assertEquals("a part could not be sent", wrapped.getMessage());
        assertSame(sql, wrapped.getCause());
    }
}
