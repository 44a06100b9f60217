-- The investigation record: findings that cite evidence, reviews, the root cause, the timeline and actions.
-- Reviews and timeline entries are write-once like evidence. Findings and root causes may change while they are
-- proposed and are frozen by the database itself once a review has decided them.

ALTER TABLE incident
    ADD COLUMN investigation_question text,
    ADD COLUMN impact                 text,
    ADD COLUMN contributing_factors   text[] NOT NULL DEFAULT '{}',
    ADD COLUMN went_well              text[] NOT NULL DEFAULT '{}',
    ADD COLUMN made_harder            text[] NOT NULL DEFAULT '{}',
    ADD COLUMN detection_gap          text;

CREATE TABLE finding (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    incident_id  bigint      NOT NULL REFERENCES incident (id),
    name         text        NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
    kind         text        NOT NULL CHECK (kind IN ('supporting', 'negative', 'gap')),
    statement    text        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('proposed', 'accepted', 'rejected')),
    created_at   timestamptz NOT NULL,
    -- when the current statement and citations were proposed; only verifications after it count for acceptance
    proposed_at  timestamptz NOT NULL,
    CONSTRAINT finding_name_unique UNIQUE (incident_id, name)
);

-- A citation pins the digest the artifact had when it was cited.
CREATE TABLE finding_citation (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    finding_id   bigint  NOT NULL REFERENCES finding (id),
    artifact_id  bigint  NOT NULL REFERENCES artifact (id),
    digest       text    NOT NULL CHECK (digest ~ '^sha256:[0-9a-f]{64}$'),
    position     integer NOT NULL,
    CONSTRAINT finding_citation_unique UNIQUE (finding_id, artifact_id)
);

CREATE INDEX finding_citation_by_artifact ON finding_citation (artifact_id);

CREATE TABLE finding_review (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    finding_id   bigint      NOT NULL REFERENCES finding (id),
    decision     text        NOT NULL CHECK (decision IN ('accepted', 'rejected')),
    note         text        NOT NULL,
    reviewed_at  timestamptz NOT NULL
);

CREATE INDEX finding_review_by_finding ON finding_review (finding_id, reviewed_at);

CREATE TABLE root_cause (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    incident_id  bigint      NOT NULL UNIQUE REFERENCES incident (id),
    statement    text        NOT NULL,
    confidence   text        NOT NULL CHECK (confidence IN ('high', 'medium', 'low')),
    status       text        NOT NULL CHECK (status IN ('proposed', 'accepted', 'rejected')),
    created_at   timestamptz NOT NULL,
    proposed_at  timestamptz NOT NULL
);

CREATE TABLE root_cause_finding (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    root_cause_id  bigint  NOT NULL REFERENCES root_cause (id),
    finding_id     bigint  NOT NULL REFERENCES finding (id),
    position       integer NOT NULL,
    CONSTRAINT root_cause_finding_unique UNIQUE (root_cause_id, finding_id)
);

CREATE INDEX root_cause_finding_by_finding ON root_cause_finding (finding_id);

CREATE TABLE root_cause_review (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    root_cause_id  bigint      NOT NULL REFERENCES root_cause (id),
    decision       text        NOT NULL CHECK (decision IN ('accepted', 'rejected')),
    note           text        NOT NULL,
    reviewed_at    timestamptz NOT NULL
);

CREATE TABLE timeline_entry (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    incident_id  bigint      NOT NULL REFERENCES incident (id),
    number       integer     NOT NULL CHECK (number > 0),
    at           timestamptz NOT NULL,
    event        text        NOT NULL,
    created_at   timestamptz NOT NULL,
    CONSTRAINT timeline_entry_number_unique UNIQUE (incident_id, number)
);

CREATE TABLE timeline_citation (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry_id     bigint  NOT NULL REFERENCES timeline_entry (id),
    artifact_id  bigint  NOT NULL REFERENCES artifact (id),
    digest       text    NOT NULL CHECK (digest ~ '^sha256:[0-9a-f]{64}$'),
    position     integer NOT NULL,
    CONSTRAINT timeline_citation_unique UNIQUE (entry_id, artifact_id)
);

CREATE INDEX timeline_citation_by_artifact ON timeline_citation (artifact_id);

CREATE TABLE action_item (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    incident_id  bigint      NOT NULL REFERENCES incident (id),
    number       integer     NOT NULL CHECK (number > 0),
    action       text        NOT NULL,
    owner        text        NOT NULL,
    due          date        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('open', 'in-progress', 'completed')),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    CONSTRAINT action_item_number_unique UNIQUE (incident_id, number)
);

-- Records, like evidence, are write-once.
CREATE TRIGGER finding_review_write_once BEFORE UPDATE OR DELETE ON finding_review
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER finding_review_no_truncate BEFORE TRUNCATE ON finding_review
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER root_cause_review_write_once BEFORE UPDATE OR DELETE ON root_cause_review
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER root_cause_review_no_truncate BEFORE TRUNCATE ON root_cause_review
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER timeline_entry_write_once BEFORE UPDATE OR DELETE ON timeline_entry
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER timeline_entry_no_truncate BEFORE TRUNCATE ON timeline_entry
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER timeline_citation_write_once BEFORE UPDATE OR DELETE ON timeline_citation
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER timeline_citation_no_truncate BEFORE TRUNCATE ON timeline_citation
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();

-- A decided finding, and an accepted root cause, are frozen: no change to them, their citations or their findings.
-- Nothing of the record is ever deleted. The trigger argument lists the statuses that freeze the row.
CREATE FUNCTION refuse_change_once_decided() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    IF TG_OP = 'DELETE' OR OLD.status = ANY (string_to_array(TG_ARGV[0], ',')) THEN
        RAISE EXCEPTION 'a % that is % is frozen: % refused', TG_TABLE_NAME, OLD.status, TG_OP
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE FUNCTION refuse_citation_change_once_decided() RETURNS trigger
    LANGUAGE plpgsql AS
$$
DECLARE
    owner_status text;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        RAISE EXCEPTION 'citations are never rewritten: UPDATE on % refused', TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF TG_TABLE_NAME = 'finding_citation' THEN
        SELECT status INTO owner_status FROM finding WHERE id = OLD.finding_id;
    ELSE
        SELECT status INTO owner_status FROM root_cause WHERE id = OLD.root_cause_id;
    END IF;
    IF owner_status = ANY (string_to_array(TG_ARGV[0], ',')) THEN
        RAISE EXCEPTION 'a record that is % is frozen: DELETE on % refused', owner_status, TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END;
$$;

CREATE TRIGGER finding_frozen_once_decided BEFORE UPDATE OR DELETE ON finding
    FOR EACH ROW EXECUTE FUNCTION refuse_change_once_decided('accepted,rejected');
CREATE TRIGGER root_cause_frozen_once_accepted BEFORE UPDATE OR DELETE ON root_cause
    FOR EACH ROW EXECUTE FUNCTION refuse_change_once_decided('accepted');
CREATE TRIGGER finding_citation_frozen_once_decided BEFORE UPDATE OR DELETE ON finding_citation
    FOR EACH ROW EXECUTE FUNCTION refuse_citation_change_once_decided('accepted,rejected');
CREATE TRIGGER root_cause_finding_frozen_once_accepted BEFORE UPDATE OR DELETE ON root_cause_finding
    FOR EACH ROW EXECUTE FUNCTION refuse_citation_change_once_decided('accepted');
CREATE TRIGGER finding_no_truncate BEFORE TRUNCATE ON finding
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER finding_citation_no_truncate BEFORE TRUNCATE ON finding_citation
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER root_cause_no_truncate BEFORE TRUNCATE ON root_cause
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER root_cause_finding_no_truncate BEFORE TRUNCATE ON root_cause_finding
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER action_item_no_delete BEFORE DELETE ON action_item
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER action_item_no_truncate BEFORE TRUNCATE ON action_item
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();

-- An action's status and due date move on; what was agreed, with whom and under which number, does not.
CREATE FUNCTION refuse_action_rewrite() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    IF NEW.id <> OLD.id OR NEW.incident_id <> OLD.incident_id OR NEW.number <> OLD.number
        OR NEW.action <> OLD.action OR NEW.owner <> OLD.owner OR NEW.created_at <> OLD.created_at THEN
        RAISE EXCEPTION 'only the status and due date of an action change: UPDATE refused'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER action_item_only_status_and_due BEFORE UPDATE ON action_item
    FOR EACH ROW EXECUTE FUNCTION refuse_action_rewrite();
