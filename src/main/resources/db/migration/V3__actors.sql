-- Who did it: every record carries the principal of the token that wrote it. Rows written before authentication
-- existed are attributed to 'unknown'; from now on the service always supplies the name.

ALTER TABLE incident ADD COLUMN created_by text NOT NULL DEFAULT 'unknown';
ALTER TABLE artifact ADD COLUMN created_by text NOT NULL DEFAULT 'unknown';
ALTER TABLE finding ADD COLUMN created_by text NOT NULL DEFAULT 'unknown';
-- who proposed the current statement and citations (the creator, or whoever revised it last)
ALTER TABLE finding ADD COLUMN proposed_by text NOT NULL DEFAULT 'unknown';
ALTER TABLE root_cause ADD COLUMN proposed_by text NOT NULL DEFAULT 'unknown';
ALTER TABLE timeline_entry ADD COLUMN created_by text NOT NULL DEFAULT 'unknown';
ALTER TABLE action_item ADD COLUMN created_by text NOT NULL DEFAULT 'unknown';
ALTER TABLE verification ADD COLUMN verified_by text NOT NULL DEFAULT 'unknown';
ALTER TABLE finding_review ADD COLUMN reviewed_by text NOT NULL DEFAULT 'unknown';
ALTER TABLE root_cause_review ADD COLUMN reviewed_by text NOT NULL DEFAULT 'unknown';

ALTER TABLE incident ALTER COLUMN created_by DROP DEFAULT;
ALTER TABLE artifact ALTER COLUMN created_by DROP DEFAULT;
ALTER TABLE finding ALTER COLUMN created_by DROP DEFAULT;
ALTER TABLE finding ALTER COLUMN proposed_by DROP DEFAULT;
ALTER TABLE root_cause ALTER COLUMN proposed_by DROP DEFAULT;
ALTER TABLE timeline_entry ALTER COLUMN created_by DROP DEFAULT;
ALTER TABLE action_item ALTER COLUMN created_by DROP DEFAULT;
ALTER TABLE verification ALTER COLUMN verified_by DROP DEFAULT;
ALTER TABLE finding_review ALTER COLUMN reviewed_by DROP DEFAULT;
ALTER TABLE root_cause_review ALTER COLUMN reviewed_by DROP DEFAULT;

-- Who uploaded which blob: a blob is readable through an artifact the caller can see, or by its uploaders.
CREATE TABLE blob_upload (
    digest       text        NOT NULL REFERENCES blob (digest),
    uploaded_by  text        NOT NULL,
    uploaded_at  timestamptz NOT NULL,
    PRIMARY KEY (digest, uploaded_by)
);

CREATE TRIGGER blob_upload_write_once BEFORE UPDATE OR DELETE ON blob_upload
    FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change();
CREATE TRIGGER blob_upload_no_truncate BEFORE TRUNCATE ON blob_upload
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();

-- An action's creator is as fixed as what was agreed.
CREATE OR REPLACE FUNCTION refuse_action_rewrite() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    IF NEW.id <> OLD.id OR NEW.incident_id <> OLD.incident_id OR NEW.number <> OLD.number
        OR NEW.action <> OLD.action OR NEW.owner <> OLD.owner OR NEW.created_at <> OLD.created_at
        OR NEW.created_by <> OLD.created_by THEN
        RAISE EXCEPTION 'only the status and due date of an action change: UPDATE refused'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;
