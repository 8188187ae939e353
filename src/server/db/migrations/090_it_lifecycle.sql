-- The IT lifecycle both IT dashboards can work: an incident IT has taken stays Open (with its ticket number and
-- assignee) instead of 'In Progress', a status the original IT dashboard offers no action for; the employee's
-- confirmation closes a resolved incident; a rejected password reset reads 'Rejected'. Requests stored by
-- older versions are brought to that lifecycle here, each move written to the event log (no actor: the upgrade).

-- 1. Incidents 'In Progress' -> 'Open' (their ticket number, assignee and any earlier confirmation answer stay).
CREATE TEMP TABLE it_moved_open ON COMMIT DROP AS
  SELECT id FROM requests WHERE form_type = 'it-incident' AND status = 'In Progress';
UPDATE requests r SET status = 'Open', updated_at = now() FROM it_moved_open m WHERE r.id = m.id;
INSERT INTO request_events (request_pk, actor_id, event_type, stage, field, old_value, new_value, details)
  SELECT id, NULL, 'status_change', 'it_helpdesk', 'status', 'In Progress', 'Open', '{"reason": "upgrade: In Progress is Open"}'::jsonb
    FROM it_moved_open;

-- 2. Incidents resolved and confirmed by the employee but never closed -> Closed, the IT helpdesk step Completed
--    and signed by the officer who resolved it (else the assignee). The request first, then its step: the
--    approval counters' triggers read the other table.
CREATE TEMP TABLE it_confirmed ON COMMIT DROP AS
  SELECT id, coalesce(nullif(data->>'it_resolved_by', ''), nullif(data->>'it_helpdesk_assigned_to', ''), 'IT Support Officer') AS signer,
         CASE WHEN jsonb_typeof(data->'it_resolved_by_id') = 'number' THEN (data->>'it_resolved_by_id')::int END AS signer_id
    FROM requests
   WHERE form_type = 'it-incident' AND status = 'Resolved' AND data->>'employee_confirmation_status' = 'Confirmed';
UPDATE requests r SET status = 'Closed', current_stage = NULL, updated_at = now(),
       data = r.data || jsonb_build_object('it_closed_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  FROM it_confirmed c WHERE r.id = c.id;
UPDATE approvals a SET decision = 'Completed', signer_id = c.signer_id, signer_name = c.signer, decided_at = now()
  FROM it_confirmed c WHERE a.request_pk = c.id AND a.stage = 'it_helpdesk' AND a.decision = 'Pending';
INSERT INTO request_events (request_pk, actor_id, event_type, stage, field, old_value, new_value, details)
  SELECT id, NULL, 'status_change', 'it_helpdesk', 'status', 'Resolved', 'Closed',
         '{"reason": "upgrade: the employee had confirmed it solved", "it_helpdesk_approval": "Completed"}'::jsonb
    FROM it_confirmed;

-- 3. Rejected password resets whose stored IT support status says otherwise ('Completed') -> 'Rejected'.
UPDATE requests SET data = data || '{"it_support_status": "Rejected"}'::jsonb
 WHERE form_type = 'password-reset' AND status = 'Rejected' AND data->>'it_support_status' IS DISTINCT FROM 'Rejected';
