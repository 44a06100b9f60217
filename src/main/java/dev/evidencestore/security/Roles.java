package dev.evidencestore.security;

import java.util.Set;

/** The roles a token's {@code groups} claim grants. Every role may read; only its own writes are allowed. */
public final class Roles {

    /** Uploads blobs and binds artifacts. */
    public static final String COLLECTOR = "collector";
    /** Creates incidents, findings, root causes, timeline entries, actions and narrative. */
    public static final String INVESTIGATOR = "investigator";
    /** Verifies evidence and reviews findings and root causes. */
    public static final String REVIEWER = "reviewer";
    /** Reads. */
    public static final String READER = "reader";

    public static final Set<String> ALL = Set.of(COLLECTOR, INVESTIGATOR, REVIEWER, READER);

    private Roles() {
    }
}
