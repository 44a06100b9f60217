package dev.evidencestore.domain;

import java.util.List;

/** The postmortem's prose about an incident: what was asked, what it cost, and what to learn. */
public record Narrative(
        String investigationQuestion,
        String impact,
        List<String> contributingFactors,
        List<String> wentWell,
        List<String> madeHarder,
        String detectionGap) {

    public static final Narrative EMPTY = new Narrative(null, null, null, null, null, null);

    public Narrative {
        contributingFactors = contributingFactors == null ? List.of() : List.copyOf(contributingFactors);
        wentWell = wentWell == null ? List.of() : List.copyOf(wentWell);
        madeHarder = madeHarder == null ? List.of() : List.copyOf(madeHarder);
    }
}
