package dev.evidencestore.api;

import dev.evidencestore.domain.CheckedCitation;

import java.util.List;

/** The verdict on a text's citations: {@code ok} only when every one of them is. */
public record CitationCheckResponse(boolean ok, int checked, List<Item> citations) {

    public record Item(String id, int line, String status, String digest) {

        static Item of(CheckedCitation c) {
            return new Item(c.id(), c.line(), c.status().wire(), c.digest() == null ? null : c.digest().toString());
        }
    }

    static CitationCheckResponse of(List<CheckedCitation> citations) {
        boolean ok = citations.stream().allMatch(c -> c.status() == CheckedCitation.Status.OK);
        return new CitationCheckResponse(ok, citations.size(), citations.stream().map(Item::of).toList());
    }
}
