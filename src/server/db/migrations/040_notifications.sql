-- Notifications: which transaction created a row (so one change that writes several events gives one notification
-- per person), the optional e-mail outbox (kind, state, attempts), and the indexes of the live stream and mailer.

ALTER TABLE notifications
  ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  ADD COLUMN stage text,
  -- 'final_decision' (owner) or 'new_item' (approver) when the change merits an e-mail; null otherwise
  ADD COLUMN email_kind text,
  -- null (no e-mail), 'queued', 'sent', 'failed', 'skipped' (too old when a mailer first saw it)
  ADD COLUMN email_state text,
  ADD COLUMN email_attempts smallint NOT NULL DEFAULT 0,
  ADD COLUMN emailed_at timestamptz;

CREATE INDEX notifications_request_idx ON notifications (request_pk, id);
CREATE INDEX notifications_email_queue_idx ON notifications (id) WHERE email_state = 'queued';
