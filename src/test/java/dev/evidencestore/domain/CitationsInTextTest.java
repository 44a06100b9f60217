package dev.evidencestore.domain;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A text's distinct IDs, up to a limit, and a citation's verdict over all its mentions. */
class CitationsInTextTest {

    private static final String PANEL = "artifact:demo:v1:INC-1423:grafana-checkout";
    private static final String FINDING = "finding:demo:v1:INC-1423:queue-after-deploy";

    @Test
    void distinctIdsAreTheFirstAppearancesInOrder() {
        String text = FINDING + " and " + PANEL + "\n" + PANEL + "\r\n" + FINDING;
        assertEquals(List.of(FINDING, PANEL), List.copyOf(CitationsInText.distinctIds(text, 2)));
    }

    @Test
    void oneDistinctIdMoreThanTheLimitIsRefusedWithTheLimit() {
        String text = PANEL + "\n" + FINDING + "\n" + PANEL + "-2";
        Refusal refusal = assertThrows(Refusal.class, () -> CitationsInText.distinctIds(text, 2));
        assertEquals(ProblemType.TEXT_TOO_LARGE, refusal.type());
        assertEquals("texts to check may cite at most 2 distinct artifact and finding IDs; this one cites more",
                refusal.getMessage());
        assertEquals(Map.of("maxDistinctIds", 2), refusal.extensions());
    }

    @Test
    void repeatsDoNotCountAgainstTheLimit() {
        assertEquals(Set.of(PANEL), CitationsInText.distinctIds((PANEL + "\n").repeat(10_000), 1));
    }

    @Test
    void aCitationIsAsGoodAsItsWorstMentionAndNamesTheFirstLineWithIt() {
        CheckedCitation citation = CheckedCitation.first(PANEL, 2, CheckedCitation.Status.OK, null)
                .and(5, CheckedCitation.Status.DIGEST_MISMATCH)
                .and(7, CheckedCitation.Status.OK)
                .and(9, CheckedCitation.Status.DIGEST_MISMATCH);
        assertEquals(new CheckedCitation(PANEL, 5, 4, CheckedCitation.Status.DIGEST_MISMATCH, null), citation);
        assertEquals(new CheckedCitation(PANEL, 2, 2, CheckedCitation.Status.UNVERIFIED, null),
                CheckedCitation.first(PANEL, 2, CheckedCitation.Status.UNVERIFIED, null)
                        .and(3, CheckedCitation.Status.UNVERIFIED));
    }
}
