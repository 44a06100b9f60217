package dev.evidencestore.api;

import dev.evidencestore.domain.CheckedCitation;

import java.util.List;

/**
 * The verdict on a text's citations: {@code ok} only when every one of them is. One item per distinct ID, however
 * often the text repeats it, so the answer is bounded by the distinct IDs a check may look up.
 */
public record CitationCheckResponse(boolean ok, int checked, int mentions, List<Item> citations) {

    public record Item(String id, int line, int mentions, String status, String digest) {

        static Item of(CheckedCitation c) {
            return new Item(c.id(), c.line(), c.mentions(), c.status().wire(),
                    c.digest() == null ? null : c.digest().toString());
        }
    }

    static CitationCheckResponse of(List<CheckedCitation> citations) {
        boolean ok = citations.stream().allMatch(c -> c.status() == CheckedCitation.Status.OK);
        int mentions = citations.stream().mapToInt(CheckedCitation::mentions).sum();
        return new CitationCheckResponse(ok, citations.size(), mentions, citations.stream().map(Item::of).toList());
    }
}
