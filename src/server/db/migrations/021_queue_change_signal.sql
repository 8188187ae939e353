-- Queue caches of every server instance listen on 'adminease_queue': any committed change to requests or
-- approvals signals it (PostgreSQL folds identical notifications of one transaction into one).
CREATE FUNCTION approval_queue_signal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('adminease_queue', '');
  RETURN NULL;
END $$;

CREATE TRIGGER approval_queue_signal_requests AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON requests
  FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal();
CREATE TRIGGER approval_queue_signal_approvals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON approvals
  FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal();
-- Names and departments shown in the queues come from users.
CREATE TRIGGER approval_queue_signal_users AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal();
