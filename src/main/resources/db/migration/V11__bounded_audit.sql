-- Every audit entry is bounded, whatever a client sends: a value the client chose (actor, method, path, target)
-- longer than 256 bytes is kept to its first 256 bytes, and the entry records the length and SHA-256 of the whole
-- in truncated; many refused requests of one client address are recorded as one entry, whose aggregate holds how
-- many, the first and last time and the distinct operations (dev.evidencestore.audit.Truncation, Aggregate).
--
-- Both hold the canonical JSON of the member's value, or null; they are members of the entry's canonical JSON
-- only when not null, so entries written before this migration hash as they always did.
ALTER TABLE audit_pending ADD COLUMN truncated text, ADD COLUMN aggregate text;
ALTER TABLE audit_entry ADD COLUMN truncated text, ADD COLUMN aggregate text;

-- The bound, checked by the database too. NOT VALID: it binds what is written from now on, not the entries written
-- before it, which stay as they were (and cannot change).
ALTER TABLE audit_pending ADD CONSTRAINT audit_pending_bounded CHECK (
    octet_length(actor) <= 256 AND octet_length(method) <= 256 AND octet_length(path) <= 256
    AND coalesce(octet_length(target), 0) <= 256 AND coalesce(octet_length(truncated), 0) <= 1024
    AND coalesce(octet_length(aggregate), 0) <= 2048) NOT VALID;
ALTER TABLE audit_entry ADD CONSTRAINT audit_entry_bounded CHECK (
    octet_length(actor) <= 256 AND octet_length(method) <= 256 AND octet_length(path) <= 256
    AND coalesce(octet_length(target), 0) <= 256 AND coalesce(octet_length(truncated), 0) <= 1024
    AND coalesce(octet_length(aggregate), 0) <= 2048) NOT VALID;
