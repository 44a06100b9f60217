package dev.evidencestore.domain;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.function.Consumer;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The checks written as loops accept exactly what the contract's patterns (openapi.yaml) accept. */
class SlugRulesTest {

    private static final Pattern WORKSPACE = Pattern.compile("^[a-z0-9][a-z0-9-]{0,31}$");
    private static final Pattern NAME = Pattern.compile("^[a-z0-9][a-z0-9-]{0,63}$");
    private static final Pattern KEY = Pattern.compile("^[A-Z][A-Z0-9]{0,15}-[0-9]{1,9}$");

    @Property(tries = 3000)
    void workspaces(@ForAll("lowercase") String value) {
        assertAccepts(WORKSPACE, value, Workspace::new);
    }

    @Property(tries = 3000)
    void recordNames(@ForAll("lowercase") String value) {
        assertAccepts(NAME, value, RecordName::new);
    }

    @Property(tries = 3000)
    void incidentKeys(@ForAll("keys") String value) {
        assertAccepts(KEY, value, IncidentKey::new);
    }

    private static void assertAccepts(Pattern rule, String value, Consumer<String> check) {
        boolean accepted;
        try {
            check.accept(value);
            accepted = true;
        } catch (Refusal refused) {
            accepted = false;
        }
        assertEquals(rule.matcher(value).matches(), accepted, value);
    }

    /** Around the lengths where the rules change: 1, 32, 33, 64, 65 characters. */
    @Provide
    Arbitrary<String> lowercase() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("az09-").ofMinLength(0).ofMaxLength(70),
                Arbitraries.strings().withChars("abz019-A_. é\n").ofMinLength(0).ofMaxLength(5),
                Arbitraries.strings().withChars("a-").ofMinLength(30).ofMaxLength(35),
                Arbitraries.strings().withChars("0-").ofMinLength(62).ofMaxLength(67));
    }

    /** Around the lengths where the rule changes: a prefix of 16 or 17, a number of 9 or 10 characters. */
    @Provide
    Arbitrary<String> keys() {
        Arbitrary<String> prefix = Arbitraries.strings().withChars("AZ09a-").ofMinLength(0).ofMaxLength(18);
        Arbitrary<String> number = Arbitraries.strings().withChars("09A-").ofMinLength(0).ofMaxLength(11);
        return Arbitraries.oneOf(
                Combinators.combine(prefix, number).as((p, n) -> p + "-" + n),
                Arbitraries.strings().withChars("AZ09-").ofMaxLength(28),
                Combinators.combine(Arbitraries.strings().withChars("AZ9").ofMinLength(15).ofMaxLength(18),
                        Arbitraries.strings().withChars("09").ofMinLength(8).ofMaxLength(10)).as((p, n) -> p + "-" + n),
                Arbitraries.strings().withChars("AB1-\n ").ofMaxLength(6));
    }
}
