-- Notifications speak the spec's approval fields only, and an approver's 'awaits your ...' item ends once its stage
-- is acted on.
--  * approval_field is one of line_manager_approval, hr_approval, finance_approval, facilities_desk_approval,
--    facilities_manager_approval, status, line_manager_acknowledgement (IT's fields and anything else: status).
--  * `awaiting` marks an approver's item that waits for their action on `stage`; it reads 'New' -> 'Pending'.
--  * An awaiting item is marked read, for everyone it went to, when someone acts on its stage (a decision, an
--    acknowledgement, IT setting a password or working a ticket), or when the request is withdrawn or reaches a final
--    status: so it is no longer listed by the form-state calls (unread notifications, changes since the snapshot).
--    The rule sits on request_events because every change of a request writes its event there, whichever code path.

ALTER TABLE notifications ADD COLUMN awaiting boolean NOT NULL DEFAULT false;

-- Existing rows: approvers' pending items are awaiting items ...
UPDATE notifications n SET awaiting = true
  FROM requests r
 WHERE r.id = n.request_pk AND n.user_id <> r.employee_id AND n.change_type = 'pending' AND n.stage IS NOT NULL;

-- ... named by their own stage's field, reading New -> Pending (an item about an owner's edit: Pending -> Pending).
UPDATE notifications
   SET approval_field = CASE
         WHEN approval_field = 'line_manager_acknowledgement' OR (approval_field = 'edited' AND title LIKE 'Password Reset%') THEN approval_field
         WHEN stage IN ('line_manager', 'hr', 'finance', 'facilities_desk', 'facilities_manager') THEN stage || '_approval'
         ELSE 'status' END,
       old_value = CASE WHEN approval_field = 'edited' THEN 'Pending' ELSE 'New' END,
       new_value = 'Pending'
 WHERE awaiting;
UPDATE notifications SET approval_field = 'line_manager_acknowledgement' WHERE awaiting AND approval_field = 'edited';

-- Every other row: the spec's fields only.
UPDATE notifications SET approval_field = 'status'
 WHERE approval_field IS NULL
    OR approval_field NOT IN ('line_manager_approval', 'hr_approval', 'finance_approval', 'facilities_desk_approval',
                              'facilities_manager_approval', 'status', 'line_manager_acknowledgement');

-- Awaiting items whose stage was already acted on, or whose request is finished, are no longer waiting.
UPDATE notifications n SET read_at = now()
  FROM requests r
 WHERE n.awaiting AND n.read_at IS NULL AND r.id = n.request_pk
   AND (lower(r.status) IN ('approved', 'rejected', 'completed', 'closed', 'cancelled')
        OR (n.approval_field = 'line_manager_acknowledgement'
            AND lower(coalesce(r.data->>'line_manager_acknowledgement', '')) IN ('true', 'approved'))
        OR (n.approval_field <> 'line_manager_acknowledgement'
            AND EXISTS (SELECT 1 FROM approvals a WHERE a.request_pk = n.request_pk AND a.stage = n.stage AND a.decision <> 'Pending')));

CREATE INDEX notifications_awaiting_idx ON notifications (request_pk, stage) WHERE awaiting AND read_at IS NULL;

CREATE FUNCTION notifications_resolve_awaiting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notifications n SET read_at = coalesce(NEW.created_at, now())
   WHERE n.request_pk = NEW.request_pk AND n.awaiting AND n.read_at IS NULL
     AND (
       -- the request is withdrawn or finished: nothing waits any more
       NEW.event_type = 'withdrawn'
       OR (NEW.field = 'status' AND lower(coalesce(NEW.new_value, '')) IN ('approved', 'rejected', 'completed', 'closed', 'cancelled'))
       -- someone acted on the item's stage
       OR (n.stage = NEW.stage AND NEW.event_type IN ('decision', 'acknowledged', 'password_set', 'ticket_updated'))
     );
  RETURN NULL;
END $$;

CREATE TRIGGER request_events_resolve_awaiting AFTER INSERT ON request_events
  FOR EACH ROW WHEN (NEW.event_type IN ('decision', 'acknowledged', 'password_set', 'ticket_updated', 'withdrawn', 'status_change'))
  EXECUTE FUNCTION notifications_resolve_awaiting();
