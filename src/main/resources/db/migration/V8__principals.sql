-- Who did it, for good: besides the display name it showed (upn, else preferred_username, else sub), every record
-- now keeps the principal of the token that wrote it, its issuer and subject as "{iss} {sub}" (an issuer holds no
-- space). Names may be renamed or spelled in another case; principals are what four eyes, Idempotency-Key owners and
-- uploaders are compared by. Rows written before this migration have no principal (NULL) and compare by name, as
-- they did. Adding a nullable column rewrites no row, so the write-once triggers are not involved.

ALTER TABLE incident ADD COLUMN created_by_principal text;
ALTER TABLE artifact ADD COLUMN created_by_principal text;
ALTER TABLE finding ADD COLUMN created_by_principal text;
ALTER TABLE finding ADD COLUMN proposed_by_principal text;
ALTER TABLE root_cause ADD COLUMN proposed_by_principal text;
ALTER TABLE timeline_entry ADD COLUMN created_by_principal text;
ALTER TABLE action_item ADD COLUMN created_by_principal text;
ALTER TABLE verification ADD COLUMN verified_by_principal text;
ALTER TABLE finding_review ADD COLUMN reviewed_by_principal text;
ALTER TABLE root_cause_review ADD COLUMN reviewed_by_principal text;

-- An uploader is recorded once per principal, and an upload from before principals once per name, so two people
-- who share a display name are both recorded as uploaders of the same bytes.
ALTER TABLE blob_upload ADD COLUMN uploaded_by_principal text;
ALTER TABLE blob_upload DROP CONSTRAINT blob_upload_pkey;
CREATE UNIQUE INDEX blob_upload_once_per_principal ON blob_upload (digest, uploaded_by_principal)
    WHERE uploaded_by_principal IS NOT NULL;
CREATE UNIQUE INDEX blob_upload_once_per_name ON blob_upload (digest, uploaded_by)
    WHERE uploaded_by_principal IS NULL;

-- An Idempotency-Key belongs to a principal; the column that held the owner's name keeps it as "name". Records from
-- before this migration (principal NULL) stay their name's until they expire; no new ones are written.
ALTER TABLE idempotency_record RENAME COLUMN principal TO name;
ALTER TABLE idempotency_record ADD COLUMN principal text;
ALTER TABLE idempotency_record DROP CONSTRAINT idempotency_record_pkey;
CREATE UNIQUE INDEX idempotency_record_key_per_principal ON idempotency_record (principal, idempotency_key)
    WHERE principal IS NOT NULL;
CREATE UNIQUE INDEX idempotency_record_key_per_name ON idempotency_record (name, idempotency_key)
    WHERE principal IS NULL;

-- Who created an incident or an action is as fixed as the name they showed.
CREATE OR REPLACE FUNCTION refuse_incident_identity_change() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    IF TG_OP = 'DELETE' OR NEW.id <> OLD.id OR NEW.workspace <> OLD.workspace
        OR NEW.incident_key <> OLD.incident_key OR NEW.created_at <> OLD.created_at
        OR NEW.created_by <> OLD.created_by
        OR NEW.created_by_principal IS DISTINCT FROM OLD.created_by_principal THEN
        RAISE EXCEPTION 'an incident''s identity is permanent: % refused', TG_OP
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE OR REPLACE FUNCTION refuse_action_rewrite() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    IF NEW.id <> OLD.id OR NEW.incident_id <> OLD.incident_id OR NEW.number <> OLD.number
        OR NEW.action <> OLD.action OR NEW.owner <> OLD.owner OR NEW.created_at <> OLD.created_at
        OR NEW.created_by <> OLD.created_by
        OR NEW.created_by_principal IS DISTINCT FROM OLD.created_by_principal THEN
        RAISE EXCEPTION 'only the status and due date of an action change: UPDATE refused'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;
