-- An incident's workspace and key are part of every permanent ID in it (artifact:{ws}:v1:{key}:…), so they never
-- change; incidents are never deleted. Decided findings and accepted root causes take no new citations either.

CREATE FUNCTION refuse_incident_identity_change() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    IF TG_OP = 'DELETE' OR NEW.id <> OLD.id OR NEW.workspace <> OLD.workspace
        OR NEW.incident_key <> OLD.incident_key OR NEW.created_at <> OLD.created_at
        OR NEW.created_by <> OLD.created_by THEN
        RAISE EXCEPTION 'an incident''s identity is permanent: % refused', TG_OP
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER incident_identity_fixed BEFORE UPDATE OR DELETE ON incident
    FOR EACH ROW EXECUTE FUNCTION refuse_incident_identity_change();
CREATE TRIGGER incident_no_truncate BEFORE TRUNCATE ON incident
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change();

CREATE FUNCTION refuse_citation_of_decided() RETURNS trigger
    LANGUAGE plpgsql AS
$$
DECLARE
    owner_status text;
BEGIN
    IF TG_TABLE_NAME = 'finding_citation' THEN
        SELECT status INTO owner_status FROM finding WHERE id = NEW.finding_id;
    ELSE
        SELECT status INTO owner_status FROM root_cause WHERE id = NEW.root_cause_id;
    END IF;
    IF owner_status = ANY (string_to_array(TG_ARGV[0], ',')) THEN
        RAISE EXCEPTION 'a record that is % is frozen: INSERT on % refused', owner_status, TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER finding_citation_none_once_decided BEFORE INSERT ON finding_citation
    FOR EACH ROW EXECUTE FUNCTION refuse_citation_of_decided('accepted,rejected');
CREATE TRIGGER root_cause_finding_none_once_accepted BEFORE INSERT ON root_cause_finding
    FOR EACH ROW EXECUTE FUNCTION refuse_citation_of_decided('accepted');
