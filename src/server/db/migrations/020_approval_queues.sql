-- Approval queues at scale: partial indexes for each approver's "waiting on me" and "recent" lists, and a
-- counter table of approval rows per (approver, stage, form type, state) kept exact by statement-level
-- triggers, so queue summaries (total_pending, total_approved, ...) are a few row reads at any volume.

-- Line manager: the team's items still waiting on the manager (pending stage, or IT items not yet acknowledged).
CREATE INDEX requests_manager_waiting_idx ON requests (line_manager_id, created_at DESC, id DESC)
  WHERE current_stage = 'line_manager'
     OR (form_type IN ('it-incident', 'password-reset') AND current_stage IS NOT NULL
         AND coalesce(data->>'line_manager_acknowledgement', 'false') <> 'true');

-- HR: leave and info updates at the HR stage of one HR contact.
CREATE INDEX requests_hr_waiting_idx ON requests (hr_contact_id, created_at DESC, id DESC)
  WHERE current_stage = 'hr' AND form_type IN ('leave-request', 'info-update');

-- Finance: petty cash, travel and purchase requisitions (all, and those whose chain is still open).
CREATE INDEX requests_finance_created_idx ON requests (created_at DESC, id DESC)
  WHERE form_type IN ('petty-cash', 'travel-request', 'purchase-requisition');
CREATE INDEX requests_finance_open_idx ON requests (created_at DESC, id DESC)
  WHERE form_type IN ('petty-cash', 'travel-request', 'purchase-requisition') AND current_stage IS NOT NULL;

-- Facilities desk and manager: meeting rooms and facility access.
CREATE INDEX requests_facilities_created_idx ON requests (created_at DESC, id DESC)
  WHERE form_type IN ('meeting-room', 'facility-access');
CREATE INDEX requests_facilities_open_idx ON requests (created_at DESC, id DESC)
  WHERE form_type IN ('meeting-room', 'facility-access') AND current_stage IS NOT NULL;

-- Decisions by signer (a person's own decision history, the assistant's "what did I approve").
CREATE INDEX approvals_signer_idx ON approvals (signer_id, decided_at DESC) WHERE signer_id IS NOT NULL;

-- Events by actor (audit of one person's actions).
CREATE INDEX request_events_actor_idx ON request_events (actor_id, created_at DESC) WHERE actor_id IS NOT NULL;

-- ---- queue counters ----------------------------------------------------------------------------
-- state: the decision (Approved, Rejected, Completed, ...) once decided; for a pending row: 'Pending' when it
-- is the request's current stage, 'Waiting' when an earlier stage is still pending, 'Closed' when the chain
-- ended before reaching it (earlier rejection, withdrawal). approver_id: the request's line manager for the
-- line_manager stage, its HR contact for the hr stage, 0 for role-wide stages. shard spreads hot counters.
CREATE TABLE approval_counts (
  approver_id integer NOT NULL,
  stage text NOT NULL,
  form_type text NOT NULL,
  state text NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (approver_id, stage, form_type, state, shard)
);

CREATE FUNCTION approval_count_approver(stage text, line_manager_id integer, hr_contact_id integer) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE stage WHEN 'line_manager' THEN coalesce(line_manager_id, 0)
                      WHEN 'hr' THEN coalesce(hr_contact_id, 0) ELSE 0 END $$;

CREATE FUNCTION approval_count_state(decision text, stage text, current_stage text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN decision <> 'Pending' THEN decision
                WHEN current_stage IS NULL THEN 'Closed'
                WHEN current_stage = stage THEN 'Pending'
                ELSE 'Waiting' END $$;

CREATE FUNCTION approval_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO approval_counts AS c (approver_id, stage, form_type, state, shard, n)
  SELECT approval_count_approver(a.stage, r.line_manager_id, r.hr_contact_id), a.stage, r.form_type,
         approval_count_state(a.decision, a.stage, r.current_stage), (a.request_pk % 8)::smallint, count(*)
    FROM new_rows a JOIN requests r ON r.id = a.request_pk
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (approver_id, stage, form_type, state, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE FUNCTION approval_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO approval_counts AS c (approver_id, stage, form_type, state, shard, n)
  SELECT k.approver_id, k.stage, k.form_type, k.state, k.shard, sum(k.delta)
    FROM (
      SELECT approval_count_approver(o.stage, r.line_manager_id, r.hr_contact_id) AS approver_id, o.stage, r.form_type,
             approval_count_state(o.decision, o.stage, r.current_stage) AS state, (o.request_pk % 8)::smallint AS shard, -1 AS delta
        FROM old_rows o JOIN new_rows nw ON nw.request_pk = o.request_pk AND nw.stage = o.stage
        JOIN requests r ON r.id = o.request_pk
       WHERE o.decision IS DISTINCT FROM nw.decision
      UNION ALL
      SELECT approval_count_approver(nw.stage, r.line_manager_id, r.hr_contact_id), nw.stage, r.form_type,
             approval_count_state(nw.decision, nw.stage, r.current_stage), (nw.request_pk % 8)::smallint, 1
        FROM old_rows o JOIN new_rows nw ON nw.request_pk = o.request_pk AND nw.stage = o.stage
        JOIN requests r ON r.id = nw.request_pk
       WHERE o.decision IS DISTINCT FROM nw.decision
    ) k
   GROUP BY 1, 2, 3, 4, 5
  HAVING sum(k.delta) <> 0
  ON CONFLICT (approver_id, stage, form_type, state, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

-- Direct deletes of approval rows (a cascaded delete from requests is counted by the requests trigger below,
-- and its request row is no longer visible here, so the join skips it).
CREATE FUNCTION approval_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO approval_counts AS c (approver_id, stage, form_type, state, shard, n)
  SELECT approval_count_approver(o.stage, r.line_manager_id, r.hr_contact_id), o.stage, r.form_type,
         approval_count_state(o.decision, o.stage, r.current_stage), (o.request_pk % 8)::smallint, -count(*)
    FROM old_rows o JOIN requests r ON r.id = o.request_pk
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (approver_id, stage, form_type, state, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

-- A request whose current stage, approvers or type change moves its approval rows between keys.
CREATE FUNCTION approval_counts_on_request_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO approval_counts AS c (approver_id, stage, form_type, state, shard, n)
  SELECT k.approver_id, k.stage, k.form_type, k.state, k.shard, sum(k.delta)
    FROM (
      SELECT approval_count_approver(a.stage, o.line_manager_id, o.hr_contact_id) AS approver_id, a.stage, o.form_type,
             approval_count_state(a.decision, a.stage, o.current_stage) AS state, (a.request_pk % 8)::smallint AS shard, -1 AS delta
        FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        JOIN approvals a ON a.request_pk = o.id
       WHERE o.current_stage IS DISTINCT FROM nw.current_stage OR o.line_manager_id IS DISTINCT FROM nw.line_manager_id
          OR o.hr_contact_id IS DISTINCT FROM nw.hr_contact_id OR o.form_type IS DISTINCT FROM nw.form_type
      UNION ALL
      SELECT approval_count_approver(a.stage, nw.line_manager_id, nw.hr_contact_id), a.stage, nw.form_type,
             approval_count_state(a.decision, a.stage, nw.current_stage), (a.request_pk % 8)::smallint, 1
        FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        JOIN approvals a ON a.request_pk = nw.id
       WHERE o.current_stage IS DISTINCT FROM nw.current_stage OR o.line_manager_id IS DISTINCT FROM nw.line_manager_id
          OR o.hr_contact_id IS DISTINCT FROM nw.hr_contact_id OR o.form_type IS DISTINCT FROM nw.form_type
    ) k
   GROUP BY 1, 2, 3, 4, 5
  HAVING sum(k.delta) <> 0
  ON CONFLICT (approver_id, stage, form_type, state, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

-- Deleting requests: subtract their approval rows while they are still visible.
CREATE FUNCTION approval_counts_on_request_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO approval_counts AS c (approver_id, stage, form_type, state, shard, n)
  SELECT approval_count_approver(a.stage, OLD.line_manager_id, OLD.hr_contact_id), a.stage, OLD.form_type,
         approval_count_state(a.decision, a.stage, OLD.current_stage), (a.request_pk % 8)::smallint, -count(*)
    FROM approvals a WHERE a.request_pk = OLD.id
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (approver_id, stage, form_type, state, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN OLD;
END $$;

-- Rebuilds every counter from the tables (after TRUNCATE, or to repair).
CREATE FUNCTION approval_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM approval_counts;
  INSERT INTO approval_counts (approver_id, stage, form_type, state, shard, n)
  SELECT approval_count_approver(a.stage, r.line_manager_id, r.hr_contact_id), a.stage, r.form_type,
         approval_count_state(a.decision, a.stage, r.current_stage), (a.request_pk % 8)::smallint, count(*)
    FROM approvals a JOIN requests r ON r.id = a.request_pk
   GROUP BY 1, 2, 3, 4, 5;
END $$;

CREATE FUNCTION approval_counts_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM approval_counts_rebuild();
  RETURN NULL;
END $$;

CREATE TRIGGER approval_counts_ins AFTER INSERT ON approvals REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION approval_counts_on_insert();
CREATE TRIGGER approval_counts_upd AFTER UPDATE ON approvals REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION approval_counts_on_update();
CREATE TRIGGER approval_counts_del AFTER DELETE ON approvals REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION approval_counts_on_delete();
CREATE TRIGGER approval_counts_req_upd AFTER UPDATE ON requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION approval_counts_on_request_update();
CREATE TRIGGER approval_counts_req_del BEFORE DELETE ON requests
  FOR EACH ROW EXECUTE FUNCTION approval_counts_on_request_delete();
CREATE TRIGGER approval_counts_truncate AFTER TRUNCATE ON approvals
  FOR EACH STATEMENT EXECUTE FUNCTION approval_counts_on_truncate();
CREATE TRIGGER approval_counts_req_truncate AFTER TRUNCATE ON requests
  FOR EACH STATEMENT EXECUTE FUNCTION approval_counts_on_truncate();

SELECT approval_counts_rebuild();
