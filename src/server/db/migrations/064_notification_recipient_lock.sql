-- A notification's recipient was a foreign key to users. Checking it locks the recipient's users row (FOR KEY
-- SHARE) until the writing transaction ends, and a group stage notifies the same few people (every finance
-- officer) from every decision that reaches it: concurrent decisions piled shared locks onto a handful of rows,
-- which PostgreSQL keeps as multixacts, and queued on them (decisions under load: 390-460/s with the key,
-- 620-680/s without; bench/README.md). Recipients are always ids just read from users; the key's cascade is kept
-- by this trigger (people with requests cannot be deleted at all: requests keep their foreign keys).
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_user_id_fkey;

CREATE FUNCTION notifications_of_deleted_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM notifications n USING deleted_users d WHERE n.user_id = d.id;
  RETURN NULL;
END $$;

CREATE TRIGGER users_delete_notifications AFTER DELETE ON users REFERENCING OLD TABLE AS deleted_users
  FOR EACH STATEMENT EXECUTE FUNCTION notifications_of_deleted_users();
