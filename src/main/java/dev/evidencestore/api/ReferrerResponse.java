package dev.evidencestore.api;

import dev.evidencestore.domain.Referrer;

/** One record resting on an artifact; {@code via} names the finding through which a root cause cites it. */
public record ReferrerResponse(String kind, String id, String status, String digest, String via) {

    static ReferrerResponse of(Referrer r) {
        return new ReferrerResponse(r.kind(), r.id(), r.status(), r.digest().toString(), r.via());
    }
}
