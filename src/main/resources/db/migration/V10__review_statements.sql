-- Signed review statements: every decision on a finding or a root cause is attested by an in-toto statement in a
-- DSSE envelope, signed with the audit key, that names the audit log leaf of the review's own entry.

-- The exact link between a write's records and its audit entry: the writer draws one request ID per write, the
-- review row keeps it, and the entry carries it from audit_pending to audit_entry. The sequencer numbers entries only
-- after the write committed, so the review cannot hold the leaf index itself; the request ID finds it once it is
-- known, without matching paths or times. It is not part of the entry's canonical JSON (the leaf bytes): it is a
-- database key with no meaning outside, leaves written before it hash as they always did, and what binds a review to
-- its leaf for a reader is the signed statement, which names the leaf index. Null on entries of requests that wrote
-- nothing themselves (refusals, replays) and on everything written before this migration.
ALTER TABLE audit_pending ADD COLUMN request_id uuid;
ALTER TABLE audit_entry ADD COLUMN request_id uuid;
CREATE UNIQUE INDEX audit_pending_by_request ON audit_pending (request_id) WHERE request_id IS NOT NULL;
CREATE UNIQUE INDEX audit_entry_by_request ON audit_entry (request_id) WHERE request_id IS NOT NULL;

ALTER TABLE finding_review ADD COLUMN request_id uuid UNIQUE;
ALTER TABLE root_cause_review ADD COLUMN request_id uuid UNIQUE;

-- The review's in-toto statement without its place in the log, as canonical JSON, captured by the review's own
-- transaction: what it cited and the verifications it relied on, as the reviewer saw them. The statement is signed
-- from this once the entry is sequenced, so a rejected root cause revised meanwhile, or a later verification, cannot
-- change what is attested. Null on reviews written before this migration: they have no statement.
ALTER TABLE finding_review ADD COLUMN statement_draft text;
ALTER TABLE root_cause_review ADD COLUMN statement_draft text;

-- One signed statement per review, written once it could be signed: when the review's entry has its place in the
-- log. envelope is the DSSE envelope's JSON, byte for byte as served; key_id the hex C2SP key hash of the key that
-- signed it; leaf_index the review's entry (seq - 1). Signing is deterministic (Ed25519 over a canonical payload),
-- so two instances that sign the same review at once write the same bytes, and the second insert is dropped.
CREATE TABLE review_statement (
    id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    incident_id           bigint      NOT NULL REFERENCES incident (id),
    finding_review_id     bigint      UNIQUE REFERENCES finding_review (id),
    root_cause_review_id  bigint      UNIQUE REFERENCES root_cause_review (id),
    leaf_index            bigint      NOT NULL UNIQUE CHECK (leaf_index >= 0),
    key_id                text        NOT NULL CHECK (key_id ~ '^[0-9a-f]{8}$'),
    envelope              text        NOT NULL,
    signed_at             timestamptz NOT NULL,
    CONSTRAINT review_statement_of_one_review CHECK (num_nonnulls(finding_review_id, root_cause_review_id) = 1)
);

CREATE INDEX review_statement_by_incident ON review_statement (incident_id, leaf_index);

CREATE TRIGGER review_statement_write_once BEFORE UPDATE OR DELETE ON review_statement
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER review_statement_no_truncate BEFORE TRUNCATE ON review_statement
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
