-- What the artifact pages' recognisers read from an artifact's bytes (the time window the data covers, names and
-- resourceVersions, repository and commits) beside what its capture declared, cached once per artifact and parser:
-- artifact rows and their bytes never change, so only a new parser version reads them again. It is not evidence:
-- the evidence manifest leaves it out, and anyone can derive it again from the bytes.
CREATE TABLE derived_facts (
    artifact_id bigint      NOT NULL REFERENCES artifact (id),
    parser      text        NOT NULL CHECK (parser ~ '^[a-z][a-z0-9-]*/[0-9]+$'),
    facts       jsonb       NOT NULL,
    derived_at  timestamptz NOT NULL,
    PRIMARY KEY (artifact_id, parser)
);
