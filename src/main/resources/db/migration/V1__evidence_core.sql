-- Evidence Store core schema. Evidence tables are write-once: triggers refuse UPDATE, DELETE and TRUNCATE,
-- so not even a bug or a careless operator with SQL access changes stored evidence silently.

CREATE FUNCTION refuse_evidence_change() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    RAISE EXCEPTION 'evidence is write-once: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TABLE incident (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace     text        NOT NULL CHECK (workspace ~ '^[a-z0-9][a-z0-9-]{0,31}$'),
    incident_key  text        NOT NULL CHECK (incident_key ~ '^[A-Z][A-Z0-9]{0,15}-[0-9]{1,9}$'),
    title         text        NOT NULL,
    severity      text        NOT NULL CHECK (severity IN ('SEV-1', 'SEV-2', 'SEV-3', 'SEV-4', 'SEV-5')),
    status        text        NOT NULL CHECK (status IN ('investigating', 'mitigated', 'resolved', 'in-review', 'closed')),
    services      text[]      NOT NULL DEFAULT '{}',
    regions       text[]      NOT NULL DEFAULT '{}',
    impact_start  timestamptz,
    impact_end    timestamptz,
    commander     text,
    responders    text[]      NOT NULL DEFAULT '{}',
    review_owner  text,
    summary       text,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    CONSTRAINT incident_key_unique UNIQUE (workspace, incident_key)
);

CREATE INDEX incident_newest_first ON incident (workspace, created_at DESC, id DESC);

-- Blobs the service has acknowledged. A row is written only after the backend holds the bytes durably.
CREATE TABLE blob (
    digest      text        PRIMARY KEY CHECK (digest ~ '^sha256:[0-9a-f]{64}$'),
    size        bigint      NOT NULL CHECK (size >= 0),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE artifact (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    incident_id  bigint      NOT NULL REFERENCES incident (id),
    name         text        NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
    digest       text        NOT NULL REFERENCES blob (digest),
    media_type   text        NOT NULL,
    source       text        NOT NULL,
    kind         text        NOT NULL CHECK (kind IN ('snapshot', 'source-unavailable')),
    captured_at  timestamptz NOT NULL,
    created_at   timestamptz NOT NULL,
    description  text,
    capture      json,
    CONSTRAINT artifact_name_unique UNIQUE (incident_id, name)
);

CREATE INDEX artifact_by_digest ON artifact (digest);

CREATE TABLE verification (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    artifact_id      bigint      NOT NULL REFERENCES artifact (id),
    recorded_digest  text        NOT NULL,
    computed_digest  text,
    claimed_digest   text,
    verified         boolean     NOT NULL,
    verified_at      timestamptz NOT NULL
);

CREATE INDEX verification_by_artifact ON verification (artifact_id, verified_at, id);

-- Bytes of the postgres backend: a blob is a run of fixed-size chunks under a content id, made visible
-- by its blob_content row in the same transaction, so a half-written blob can never be read.
CREATE SEQUENCE blob_content_id_seq;

CREATE TABLE blob_content (
    digest      text    PRIMARY KEY CHECK (digest ~ '^sha256:[0-9a-f]{64}$'),
    content_id  bigint  NOT NULL UNIQUE,
    size        bigint  NOT NULL CHECK (size >= 0),
    chunk_size  integer NOT NULL CHECK (chunk_size > 0)
);

CREATE TABLE blob_chunk (
    content_id  bigint  NOT NULL,
    seq         integer NOT NULL,
    data        bytea   NOT NULL,
    PRIMARY KEY (content_id, seq)
);

-- Evidence bytes are mostly compressed images and JSON already; skip TOAST compression, store out of line.
ALTER TABLE blob_chunk ALTER COLUMN data SET STORAGE EXTERNAL;

CREATE TRIGGER blob_write_once BEFORE UPDATE OR DELETE ON blob
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER blob_no_truncate BEFORE TRUNCATE ON blob
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER artifact_write_once BEFORE UPDATE OR DELETE ON artifact
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER artifact_no_truncate BEFORE TRUNCATE ON artifact
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER verification_write_once BEFORE UPDATE OR DELETE ON verification
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER verification_no_truncate BEFORE TRUNCATE ON verification
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER blob_content_write_once BEFORE UPDATE OR DELETE ON blob_content
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER blob_content_no_truncate BEFORE TRUNCATE ON blob_content
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER blob_chunk_write_once BEFORE UPDATE OR DELETE ON blob_chunk
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER blob_chunk_no_truncate BEFORE TRUNCATE ON blob_chunk
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
