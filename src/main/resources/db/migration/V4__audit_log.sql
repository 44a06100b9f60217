-- The audit log: one entry for every write the service was asked for, refused ones included, hash-chained so that a
-- changed, removed or reordered entry shows, and signed checkpoints of the chain. Both tables are write-once like
-- evidence.
--
-- Entry n stores prev_hash, the entry_hash of entry n - 1, and its own entry_hash: "sha256:" followed by the hex
-- SHA-256 of the entry's RFC 8785 canonical JSON (every field but entry_hash, prev_hash included; see
-- dev.evidencestore.audit.AuditEntry). Entry 1 has no predecessor; its prev_hash is "sha256:" followed by 64 zeros.
-- The service appends one entry at a time under a PostgreSQL advisory lock, so seq runs 1, 2, 3... without gaps
-- whichever instance writes; the trigger below refuses anything else.

CREATE TABLE audit_entry (
    seq         bigint      PRIMARY KEY CHECK (seq > 0),
    at          timestamptz NOT NULL,
    actor       text        NOT NULL,
    workspace   text        CHECK (workspace ~ '^[a-z0-9][a-z0-9-]{0,31}$'),
    method      text        NOT NULL,
    -- the request path, without the query
    path        text        NOT NULL,
    -- what the write created or touched: the Location of the answer, or the ID in the path
    target      text,
    status      integer     NOT NULL CHECK (status BETWEEN 100 AND 599),
    -- the problem type slug of a refusal, such as artifact-name-taken
    problem     text,
    prev_hash   text        NOT NULL CHECK (prev_hash ~ '^sha256:[0-9a-f]{64}$'),
    entry_hash  text        NOT NULL CHECK (entry_hash ~ '^sha256:[0-9a-f]{64}$')
);

CREATE INDEX audit_entry_by_workspace ON audit_entry (workspace, seq);

-- A signed statement that the chain had chain_length entries ending in head_hash at a moment. The signature is
-- Ed25519 over the canonical JSON of {chainLength, headHash, at}; public_key is the signer's X.509 key, base64.
CREATE TABLE audit_checkpoint (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at            timestamptz NOT NULL,
    chain_length  bigint      NOT NULL CHECK (chain_length >= 0),
    head_hash     text        NOT NULL CHECK (head_hash ~ '^sha256:[0-9a-f]{64}$'),
    public_key    text        NOT NULL,
    signature     text        NOT NULL
);

-- Even code that skips the service's lock cannot leave a gap or a broken link: an entry must extend the chain.
CREATE FUNCTION refuse_audit_entry_off_chain() RETURNS trigger
    LANGUAGE plpgsql AS
$$
DECLARE
    head audit_entry%ROWTYPE;
BEGIN
    SELECT * INTO head FROM audit_entry ORDER BY seq DESC LIMIT 1;
    IF NOT FOUND THEN
        IF NEW.seq <> 1 OR NEW.prev_hash <> 'sha256:' || repeat('0', 64) THEN
            RAISE EXCEPTION 'the first audit entry is seq 1 with the zero prev_hash: INSERT refused'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
    ELSIF NEW.seq <> head.seq + 1 OR NEW.prev_hash <> head.entry_hash THEN
        RAISE EXCEPTION 'audit entry % does not extend the chain at % (%): INSERT refused', NEW.seq, head.seq,
            head.entry_hash USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER audit_entry_extends_chain BEFORE INSERT ON audit_entry
    FOR EACH ROW EXECUTE FUNCTION refuse_audit_entry_off_chain();

CREATE TRIGGER audit_entry_write_once BEFORE UPDATE OR DELETE ON audit_entry
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER audit_entry_no_truncate BEFORE TRUNCATE ON audit_entry
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER audit_checkpoint_write_once BEFORE UPDATE OR DELETE ON audit_checkpoint
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER audit_checkpoint_no_truncate BEFORE TRUNCATE ON audit_checkpoint
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
