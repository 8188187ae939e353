-- Session caches of every server instance listen on 'adminease_session': a revoked or deleted session signals
-- its token hash (that one entry is dropped), and any change to the users' or departments' shown columns signals '' (every cached
-- session user is dropped, since names, roles and lines of report come from them).
CREATE FUNCTION session_signal_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('adminease_session', OLD.token_hash);
  RETURN NULL;
END $$;

CREATE FUNCTION session_signal_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('adminease_session', '');
  RETURN NULL;
END $$;

CREATE TRIGGER session_signal_revoked AFTER UPDATE OF revoked_at ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at) EXECUTE FUNCTION session_signal_row();
CREATE TRIGGER session_signal_deleted AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION session_signal_row();
-- Every column a session's user is read with (USER_SELECT); preferences and password changes do not signal.
CREATE TRIGGER session_signal_users
  AFTER UPDATE OF email, first_name, last_name, role, user_type, department_code, employee_code, hr_id, manager_id,
                  hr_contact_id, join_date, annual_leave_total
     OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION session_signal_all();
CREATE TRIGGER session_signal_departments AFTER UPDATE OR DELETE OR TRUNCATE ON departments
  FOR EACH STATEMENT EXECUTE FUNCTION session_signal_all();
CREATE TRIGGER session_signal_sessions_truncate AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION session_signal_all();
