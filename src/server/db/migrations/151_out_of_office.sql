-- Delegation while away, reminders and escalation (docs/delegation.md).

-- One out-of-office period per person (setting a new one replaces it). While business date `today` is within
-- [starts_on, ends_on], stages that wait on `user_id` wait on `delegate_id` too.
CREATE TABLE out_of_office (
  user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  delegate_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  starts_on date NOT NULL,
  ends_on date NOT NULL,
  message text,
  set_by integer REFERENCES users(id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (delegate_id <> user_id),
  CHECK (ends_on >= starts_on)
);
CREATE INDEX out_of_office_delegate_idx ON out_of_office (delegate_id);

-- The people `p_delegate` decides for, following delegation up to three hops (A away -> B, B away -> C: C covers A
-- and B while both are away), never through `p_delegate` itself. `path` lists the people from the one who delegated to
-- `p_delegate` to the covered one; the period is the overlap of every hop's.
CREATE FUNCTION cover_chain(p_delegate integer)
RETURNS TABLE (covered_id integer, user_type text, name text, path integer[], starts_on date, ends_on date)
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE c(covered_id, path, starts_on, ends_on, depth) AS (
    SELECT o.user_id, ARRAY[o.user_id], o.starts_on, o.ends_on, 1
      FROM out_of_office o WHERE o.delegate_id = p_delegate
    UNION ALL
    SELECT o.user_id, c.path || o.user_id, greatest(c.starts_on, o.starts_on), least(c.ends_on, o.ends_on), c.depth + 1
      FROM c JOIN out_of_office o ON o.delegate_id = c.covered_id
     WHERE c.depth < 3 AND o.user_id <> p_delegate AND o.user_id <> ALL(c.path)
       AND greatest(c.starts_on, o.starts_on) <= least(c.ends_on, o.ends_on)
  )
  SELECT c.covered_id, u.user_type, u.first_name || ' ' || u.last_name, c.path, c.starts_on, c.ends_on
    FROM c JOIN users u ON u.id = c.covered_id
   WHERE u.active
$$;

-- A session's user carries the people they cover: any change drops every cached session user (migration 060).
CREATE TRIGGER session_signal_out_of_office AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON out_of_office
  FOR EACH STATEMENT EXECUTE FUNCTION session_signal_all();

-- A decision made for someone else: by their delegate ('delegate') or by the person a stage escalated to
-- ('escalation'); on_behalf_of_id is the approver it was made for. An overdue stage's escalation names who may
-- decide it besides its approvers.
ALTER TABLE approvals
  ADD COLUMN on_behalf_of_id integer REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN on_behalf_of_name text,
  ADD COLUMN decided_as text CHECK (decided_as IN ('delegate', 'escalation')),
  ADD COLUMN escalated_to_id integer REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN escalated_at timestamptz;

-- Reminders and escalations sent: one row per stage, kind and business day, so a sweep that runs twice (two
-- instances, a retried job) sends nothing twice.
CREATE TABLE approval_reminders (
  request_pk bigint NOT NULL REFERENCES requests(id) ON DELETE CASCADE,
  stage text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('reminder', 'escalation')),
  sent_on date NOT NULL,
  sent_at timestamptz NOT NULL,
  recipients integer[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (request_pk, stage, kind, sent_on)
);

-- Per form type: after how many working days a waiting stage reminds its approvers, and after how many it escalates.
-- A type without a row uses the defaults (2 and 5).
CREATE TABLE reminder_settings (
  form_type text PRIMARY KEY,
  remind_after_days integer NOT NULL CHECK (remind_after_days BETWEEN 1 AND 60),
  escalate_after_days integer NOT NULL CHECK (escalate_after_days BETWEEN 1 AND 120),
  updated_by integer REFERENCES users(id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (escalate_after_days > remind_after_days)
);

-- The overdue sweep reads the stages still waiting.
CREATE INDEX approvals_pending_idx ON approvals (request_pk, stage) WHERE decision = 'Pending';
