-- The audit log becomes a transparency log: its entries are the leaves of an RFC 9162 Merkle tree (RFC 6962
-- hashing), whose signed checkpoints are C2SP tlog-checkpoint notes. Readers check one entry with an inclusion proof
-- and a later checkpoint against an earlier one with a consistency proof, without reading the whole log.

-- A write's entry, inserted by the write's own transaction (a refusal's by a transaction of its own), so no write
-- commits without its entry. It holds no number yet: the sequencer takes these rows in id order under the chain
-- lock, gives each its seq and tree nodes, and deletes them in the same transaction. Writes thus hold no
-- cross-instance lock, and many entries are sequenced in one transaction. The checks are those of audit_entry, so
-- a row that would not fit there is refused here, with its write, rather than stopping the sequencer.
CREATE TABLE audit_pending (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          timestamptz NOT NULL,
    actor       text        NOT NULL,
    workspace   text        CHECK (workspace ~ '^[a-z0-9][a-z0-9-]{0,31}$'),
    method      text        NOT NULL,
    path        text        NOT NULL,
    target      text,
    status      integer     NOT NULL CHECK (status BETWEEN 100 AND 599),
    problem     text,
    replayed    boolean     NOT NULL DEFAULT false
);

-- The hash of every perfect subtree of the Merkle tree: level 0 holds the leaf hashes SHA-256(0x00 || entry's
-- canonical JSON), leaf idx being the entry's seq - 1; node (level, idx) covers leaves [idx * 2^level,
-- (idx + 1) * 2^level) and is SHA-256(0x01 || left child || right child). Any root or proof of a tree of n leaves
-- is made of O(log n) of these rows.
CREATE TABLE audit_tree_node (
    level   smallint    NOT NULL CHECK (level BETWEEN 0 AND 62),
    idx     bigint      NOT NULL CHECK (idx >= 0),
    hash    bytea       NOT NULL CHECK (length(hash) = 32),
    PRIMARY KEY (level, idx)
);

-- A signed checkpoint: the C2SP signed note, byte for byte as served, over the tree of tree_size leaves whose root
-- is root_hash. key_id is the hex C2SP key hash of the key that signed it.
CREATE TABLE audit_tree_checkpoint (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          timestamptz NOT NULL,
    tree_size   bigint      NOT NULL CHECK (tree_size >= 0),
    root_hash   bytea       NOT NULL CHECK (length(root_hash) = 32),
    key_id      text        NOT NULL CHECK (key_id ~ '^[0-9a-f]{8}$'),
    note        text        NOT NULL
);

CREATE INDEX audit_tree_checkpoint_by_size ON audit_tree_checkpoint (tree_size);

-- The checkpoints of the chain written before this migration stay, and stay verifiable against the trusted keys;
-- new checkpoints are written to audit_tree_checkpoint only.
COMMENT ON TABLE audit_checkpoint IS 'superseded by audit_tree_checkpoint (V9); kept and still verified';

CREATE TRIGGER audit_tree_node_write_once BEFORE UPDATE OR DELETE ON audit_tree_node
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER audit_tree_node_no_truncate BEFORE TRUNCATE ON audit_tree_node
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER audit_tree_checkpoint_write_once BEFORE UPDATE OR DELETE ON audit_tree_checkpoint
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER audit_tree_checkpoint_no_truncate BEFORE TRUNCATE ON audit_tree_checkpoint
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
