-- What re-reading the stored bytes found: the scrub, downloads and verifications each re-hash blobs and record here
-- whether the bytes still hash to their digest. These rows are observations of evidence, not evidence: they change
-- with every check (a blob restored from a backup is undamaged again at its next check), so no write-once triggers.

CREATE TABLE blob_integrity (
    digest           text        PRIMARY KEY REFERENCES blob (digest),
    checked_at       timestamptz NOT NULL,
    damaged          boolean     NOT NULL,
    -- what the bytes hashed to at the last check; null when they could not be read at all (missing, unreadable)
    computed_digest  text        CHECK (computed_digest ~ '^sha256:[0-9a-f]{64}$'),
    -- since when the damage has been seen at every check; null while the bytes are sound
    damaged_since    timestamptz,
    CONSTRAINT blob_integrity_damage_dated CHECK (damaged = (damaged_since IS NOT NULL)),
    CONSTRAINT blob_integrity_sound_matches CHECK (damaged OR computed_digest = digest)
);

-- the damaged few are read on every download, listing and count
CREATE INDEX blob_integrity_damaged ON blob_integrity (digest) WHERE damaged;
-- the scrub walks blobs least recently checked first
CREATE INDEX blob_integrity_by_check ON blob_integrity (checked_at, digest);

-- One pass of the scrub over every stored blob. A pass that an instance did not live to finish has no finished_at;
-- the next one goes on with the blobs checked least recently, so nothing is skipped.
CREATE TABLE scrub_pass (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    started_at     timestamptz NOT NULL,
    finished_at    timestamptz,
    blobs_checked  bigint      NOT NULL DEFAULT 0 CHECK (blobs_checked >= 0),
    bytes_read     bigint      NOT NULL DEFAULT 0 CHECK (bytes_read >= 0),
    damaged_found  bigint      NOT NULL DEFAULT 0 CHECK (damaged_found >= 0)
);

CREATE INDEX scrub_pass_latest ON scrub_pass (started_at DESC);
