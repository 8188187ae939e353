-- The queue caches' signal says what changed (issue 21): a committed change to requests or approvals notifies
-- 'adminease_queue' with 'o=<owner ids>;t=<form types>;m=<line manager ids>' of the requests it touched, so
-- every instance drops only the answers that change can affect (src/server/approvals/queue-cache.ts): the
-- owners' lists, the line managers' queues and the queues of the roles whose dashboards show those form types. A change of more than 50 requests, a TRUNCATE
-- and any change to users still notify '' (everything). Statement-level triggers with transition tables: one
-- notification per statement, identical ones folded by PostgreSQL within a transaction.
DROP TRIGGER approval_queue_signal_requests ON requests;
DROP TRIGGER approval_queue_signal_approvals ON approvals;

CREATE FUNCTION approval_queue_scope_notify(pks bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  IF cardinality(pks) > 50 THEN
    PERFORM pg_notify('adminease_queue', '');
    RETURN;
  END IF;
  SELECT 'o=' || coalesce(string_agg(DISTINCT r.employee_id::text, ','), '') ||
         ';t=' || coalesce(string_agg(DISTINCT r.form_type, ','), '') ||
         ';m=' || coalesce(string_agg(DISTINCT r.line_manager_id::text, ','), '')
    INTO payload
    FROM requests r WHERE r.id = ANY(pks);
  PERFORM pg_notify('adminease_queue', payload);
END $$;

-- Requests: the old and new rows (an owner or type changed by an update counts on both sides).
CREATE FUNCTION approval_queue_signal_requests_scoped() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload text;
  n int;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*), 'o=' || coalesce(string_agg(DISTINCT employee_id::text, ','), '') || ';t=' || coalesce(string_agg(DISTINCT form_type, ','), '')
                     || ';m=' || coalesce(string_agg(DISTINCT line_manager_id::text, ','), '')
      INTO n, payload FROM new_rows;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT count(*), 'o=' || coalesce(string_agg(DISTINCT employee_id::text, ','), '') || ';t=' || coalesce(string_agg(DISTINCT form_type, ','), '')
                     || ';m=' || coalesce(string_agg(DISTINCT line_manager_id::text, ','), '')
      INTO n, payload FROM (SELECT employee_id, form_type, line_manager_id FROM new_rows UNION ALL SELECT employee_id, form_type, line_manager_id FROM old_rows) x;
  ELSE
    SELECT count(*), 'o=' || coalesce(string_agg(DISTINCT employee_id::text, ','), '') || ';t=' || coalesce(string_agg(DISTINCT form_type, ','), '')
                     || ';m=' || coalesce(string_agg(DISTINCT line_manager_id::text, ','), '')
      INTO n, payload FROM old_rows;
  END IF;
  IF n = 0 THEN
    RETURN NULL; -- nothing changed
  END IF;
  PERFORM pg_notify('adminease_queue', CASE WHEN n > 50 THEN '' ELSE payload END);
  RETURN NULL;
END $$;

-- Approvals: the requests they belong to (a deleted request's approvals go with it: the requests trigger says so).
CREATE FUNCTION approval_queue_signal_approvals_scoped() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pks bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT request_pk) INTO pks FROM new_rows;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(DISTINCT request_pk) INTO pks FROM (SELECT request_pk FROM new_rows UNION ALL SELECT request_pk FROM old_rows) x;
  ELSE
    SELECT array_agg(DISTINCT request_pk) INTO pks FROM old_rows;
  END IF;
  IF pks IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM approval_queue_scope_notify(pks);
  RETURN NULL;
END $$;

CREATE TRIGGER approval_queue_signal_requests_ins AFTER INSERT ON requests
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal_requests_scoped();
CREATE TRIGGER approval_queue_signal_requests_upd AFTER UPDATE ON requests
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal_requests_scoped();
CREATE TRIGGER approval_queue_signal_requests_del AFTER DELETE ON requests
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal_requests_scoped();
CREATE TRIGGER approval_queue_signal_requests_trunc AFTER TRUNCATE ON requests
  FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal();

CREATE TRIGGER approval_queue_signal_approvals_ins AFTER INSERT ON approvals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal_approvals_scoped();
CREATE TRIGGER approval_queue_signal_approvals_upd AFTER UPDATE ON approvals
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal_approvals_scoped();
CREATE TRIGGER approval_queue_signal_approvals_del AFTER DELETE ON approvals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal_approvals_scoped();
CREATE TRIGGER approval_queue_signal_approvals_trunc AFTER TRUNCATE ON approvals
  FOR EACH STATEMENT EXECUTE FUNCTION approval_queue_signal();
