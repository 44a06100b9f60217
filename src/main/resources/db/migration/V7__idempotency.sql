-- Idempotency-Key records (draft-ietf-httpapi-idempotency-key-header): what a create answered, kept for a retry of
-- the same request to receive again instead of repeating the create. Keys belong to the principal that sent them, so
-- one caller can neither replay nor block another's.
--
-- A row is claimed 'in-flight' when the first request with the key arrives, in a statement of its own, and becomes
-- 'complete' with the answer once the request is answered. An answer that may change on retry (a 5xx, a 401, an
-- interrupted upload) deletes the row instead. Unlike evidence, these rows change and go: they are operational state,
-- swept after evidence.idempotency.retention, and not part of the record.

CREATE TABLE idempotency_record (
    principal        text        NOT NULL,
    idempotency_key  text        NOT NULL CHECK (idempotency_key ~ '^[ -~]{1,255}$'),
    -- "sha256:" and the hex SHA-256 of the method, the path and the body (or, for blob uploads, their declared digest
    -- and length): the same key with another fingerprint is refused with 422
    fingerprint      text        NOT NULL CHECK (fingerprint ~ '^sha256:[0-9a-f]{64}$'),
    state            text        NOT NULL CHECK (state IN ('in-flight', 'complete')),
    -- which request holds the key: a request that outlives evidence.idempotency.abandoned-after loses it to a retry,
    -- and must not then store its answer over the retry's
    lease            uuid        NOT NULL,
    -- when the request holding the key arrived; abandonment and retention are measured from here
    created_at       timestamptz NOT NULL,
    completed_at     timestamptz,
    status           integer     CHECK (status BETWEEN 200 AND 499),
    -- the answer's headers, as {"Location": ["..."], "Content-Type": ["application/json"]}
    headers          jsonb,
    -- the answer's body, exactly the bytes that were sent
    body             bytea,
    PRIMARY KEY (principal, idempotency_key),
    CHECK ((state = 'complete') = (completed_at IS NOT NULL AND status IS NOT NULL AND headers IS NOT NULL
                                   AND body IS NOT NULL))
);

CREATE INDEX idempotency_record_by_age ON idempotency_record (created_at);

-- A retry answered with the stored answer did nothing itself; its audit entry says so, rather than looking like a
-- second create. Entries written before this column existed are not replays. (Adding a column with a constant
-- default rewrites no row, so the write-once triggers are not involved.)
ALTER TABLE audit_entry ADD COLUMN replayed boolean NOT NULL DEFAULT false;
