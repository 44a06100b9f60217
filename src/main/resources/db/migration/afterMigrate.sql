-- What the service's runtime role may do. Flyway runs this after every migrate, as the owner of the tables
-- (quarkus.flyway.username); the grantee is the role the service runs as (quarkus.datasource.username, passed in as
-- the placeholder runtime_role).
--
-- Only a table's owner may ALTER it, disable its triggers or DROP it, and only a grant lets anyone else TRUNCATE,
-- UPDATE or DELETE. So the write-once triggers bind the runtime role only if it owns nothing and holds no more than
-- the statements the service runs: SELECT and INSERT everywhere, UPDATE and DELETE only where rows are meant to
-- change. Each table is revoked and granted again in full on every run, so this list is the whole truth.
--
-- Every table of the schema has one line here, also those the runtime role may not touch at all (''). A migration
-- that adds a table adds its line here; RuntimeRoleTest fails for a table that has none.
--
-- With one credential for both (dev, tests of one role, a single-role installation) the runtime role is the owner:
-- it needs no grant, and revoking would take its own privileges from it, so nothing is done.
DO $grants$
DECLARE
  runtime CONSTANT text := '${runtime_role}';
  decision record;
BEGIN
  IF runtime = current_user THEN
    RETURN;
  END IF;
  -- instances starting together each run this, outside Flyway's lock; two GRANTs on one table at once fail with
  -- "tuple concurrently updated", so they take turns
  PERFORM pg_advisory_xact_lock(hashtextextended('evidence-store: runtime role grants', 0));
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', current_schema(), runtime);
  EXECUTE format('REVOKE CREATE ON SCHEMA %I FROM %I', current_schema(), runtime);
  FOR decision IN SELECT * FROM (VALUES
    -- evidence and the record: written once, never changed (the triggers refuse it too, but bind only non-owners)
    ('blob',                  'SELECT, INSERT'),
    ('blob_upload',           'SELECT, INSERT'),
    ('blob_content',          'SELECT, INSERT'),
    ('blob_chunk',            'SELECT, INSERT'),
    ('artifact',              'SELECT, INSERT'),
    ('verification',          'SELECT, INSERT'),
    ('finding_review',        'SELECT, INSERT'),
    ('root_cause_review',     'SELECT, INSERT'),
    ('timeline_entry',        'SELECT, INSERT'),
    ('timeline_citation',     'SELECT, INSERT'),
    ('audit_entry',           'SELECT, INSERT'),
    ('audit_checkpoint',      'SELECT, INSERT'),
    ('audit_tree_node',       'SELECT, INSERT'),
    ('audit_tree_checkpoint', 'SELECT, INSERT'),
    ('review_statement',      'SELECT, INSERT'),
    -- entries waiting for their place in the log: the sequencer deletes them as it writes their audit_entry rows
    ('audit_pending',         'SELECT, INSERT, DELETE'),
    -- patched: an incident's details, a proposed finding or root cause (frozen once decided), an action's status and
    -- due date; the triggers keep what is fixed. UPDATE also lets the service lock their rows (SELECT ... FOR UPDATE).
    ('incident',              'SELECT, INSERT, UPDATE'),
    ('finding',               'SELECT, INSERT, UPDATE'),
    ('root_cause',            'SELECT, INSERT, UPDATE'),
    ('action_item',           'SELECT, INSERT, UPDATE'),
    -- the citations of a proposed finding or root cause are replaced when it is revised
    ('finding_citation',      'SELECT, INSERT, DELETE'),
    ('root_cause_finding',    'SELECT, INSERT, DELETE'),
    -- observations, not evidence: each check overwrites the last, a scrub pass records its progress
    ('blob_integrity',        'SELECT, INSERT, UPDATE'),
    ('scrub_pass',            'SELECT, INSERT, UPDATE'),
    -- derived from the bytes, recomputable: written once per artifact and parser version
    ('derived_facts',         'SELECT, INSERT'),
    -- operational state: an answer is stored for retries, and a key is released or swept
    ('idempotency_record',    'SELECT, INSERT, UPDATE, DELETE'),
    -- the migrations' own bookkeeping: the owner's alone
    ('${flyway:table}',       '')
  ) AS listed (relation, privileges) LOOP
    -- a table the runtime role owns (one role used to do both, and its tables were not moved to the owner) keeps its
    -- owner's privileges: revoking them would stop the service, and the service's start warns about it instead
    CONTINUE WHEN pg_has_role(runtime, (SELECT relowner FROM pg_class
                                        WHERE oid = to_regclass(quote_ident(decision.relation))), 'MEMBER');
    EXECUTE format('REVOKE ALL ON TABLE %I FROM %I', decision.relation, runtime);
    IF decision.privileges <> '' THEN
      EXECUTE format('GRANT %s ON TABLE %I TO %I', decision.privileges, decision.relation, runtime);
    END IF;
  END LOOP;
  -- sequences: identity columns need no grant; the postgres blob backend draws its content ids itself
  EXECUTE format('GRANT USAGE ON SEQUENCE blob_content_id_seq TO %I', runtime);
  -- PUBLIC may create in the public schema on PostgreSQL 14 and older, and only the schema's owner can change that
  IF has_schema_privilege(runtime, current_schema(), 'CREATE') THEN
    RAISE WARNING 'the runtime role % may create tables in schema %: REVOKE CREATE ON SCHEMA % FROM PUBLIC',
      runtime, current_schema(), current_schema();
  END IF;
END
$grants$;
