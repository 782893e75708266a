-- Every committed change to a session, user or organization row is announced on the channel the session
-- caches listen on (docs/decisions/024-session-cache-and-invalidation.md), whoever makes it: the app, raw SQL,
-- a hand edit in psql. PostgreSQL delivers a NOTIFY when its transaction commits, so no process can refetch
-- the old row after hearing it. One announcement per statement and table: up to 100 ids, else "everything".
CREATE OR REPLACE FUNCTION "latchkey_announce_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  SELECT array_agg("id") INTO ids FROM (SELECT "id" FROM changed_rows LIMIT 101) AS sample;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify(
    'latchkey_session_invalidation',
    CASE WHEN array_length(ids, 1) > 100
      THEN json_build_object('from', 'database', 'kind', 'all')::text
      ELSE json_build_object('from', 'database', 'kind', TG_ARGV[0], 'keys', to_json(ids))::text
    END
  );
  RETURN NULL;
END;
$$;

CREATE TRIGGER "session_updated_announce" AFTER UPDATE ON "session"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "latchkey_announce_change"('session');
CREATE TRIGGER "session_deleted_announce" AFTER DELETE ON "session"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "latchkey_announce_change"('session');
CREATE TRIGGER "user_updated_announce" AFTER UPDATE ON "user"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "latchkey_announce_change"('user');
CREATE TRIGGER "user_deleted_announce" AFTER DELETE ON "user"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "latchkey_announce_change"('user');
CREATE TRIGGER "organization_updated_announce" AFTER UPDATE ON "organization"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "latchkey_announce_change"('organization');
CREATE TRIGGER "organization_deleted_announce" AFTER DELETE ON "organization"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "latchkey_announce_change"('organization');
