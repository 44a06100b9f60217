package dev.evidencestore.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Every invalid field is counted; the answer lists the first fifty. */
class ViolationsTest {

    @Test
    void oneInvalidFieldIsNamedInTheDetail() {
        Violations v = new Violations();
        v.add("title", "is required");
        Refusal refusal = assertThrows(Refusal.class, v::throwIfAny);
        assertEquals("title: is required", refusal.getMessage());
        assertEquals(List.of(new FieldError("title", "is required")), refusal.extensions().get("errors"));
        assertEquals(1, refusal.extensions().get("errorCount"));
    }

    @Test
    void aThousandInvalidFieldsAreCountedAndFiftyListed() {
        Violations v = new Violations();
        for (int i = 0; i < 1000; i++) {
            v.add("services[" + i + "]", "must not be blank");
        }
        Refusal refusal = assertThrows(Refusal.class, v::throwIfAny);
        assertEquals("1000 fields are invalid", refusal.getMessage());
        assertEquals(1000, refusal.extensions().get("errorCount"));
        List<?> listed = (List<?>) refusal.extensions().get("errors");
        assertEquals(Refusal.MAX_LISTED_ERRORS, listed.size());
        assertEquals(new FieldError("services[49]", "must not be blank"), listed.get(49));
    }

    @Test
    void nothingInvalidIsNoRefusal() {
        assertDoesNotThrow(new Violations()::throwIfAny);
    }
}
