package dev.evidencestore.http;

import dev.evidencestore.domain.Refusal;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IdempotencyKeyTest {

    @Test
    void readsTheQuotedFormOfTheDraftAndABareToken() {
        assertEquals("8e03978e-40d5", IdempotencyKey.parse("\"8e03978e-40d5\"").value());
        assertEquals("8e03978e-40d5", IdempotencyKey.parse("8e03978e-40d5").value());
        assertEquals("8e03978e-40d5", IdempotencyKey.parse(" \"8e03978e-40d5\"\t").value());
    }

    @Test
    void unescapesQuotesAndBackslashesAndKeepsSpaces() {
        assertEquals("say \"hi\" \\ there", IdempotencyKey.parse("\"say \\\"hi\\\" \\\\ there\"").value());
    }

    @Test
    void allowsUpTo255Characters() {
        assertEquals(255, IdempotencyKey.parse("\"" + "k".repeat(255) + "\"").value().length());
        assertEquals(255, IdempotencyKey.parse("k".repeat(255)).value().length());
        assertThrows(Refusal.class, () -> IdempotencyKey.parse("\"" + "k".repeat(256) + "\""));
        assertThrows(Refusal.class, () -> IdempotencyKey.parse("k".repeat(256)));
    }

    @Test
    void refusesWhatIsNotOneStringOfPrintableAscii() {
        for (String field : List.of("", "\"\"", "a b", "a,b", "\"open", "\"a\"b", "\"a\";p=1", "\"\\n\"",
                "\"caf\u00e9\"", "\"tab\there\"", "\"a\", \"b\"")) {
            Refusal refusal = assertThrows(Refusal.class, () -> IdempotencyKey.parse(field), field);
            assertEquals("Idempotency-Key", refusal.getMessage().substring(0, "Idempotency-Key".length()));
        }
    }

    @Test
    void isAbsentWithoutTheHeaderAndRefusedTwice() {
        assertNull(IdempotencyKey.of(null));
        assertThrows(Refusal.class, () -> IdempotencyKey.of(List.of("a", "b")));
    }
}
