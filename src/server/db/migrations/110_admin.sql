-- Organisation administration (issue 18): the audit log of every administrator action, and people who can be
-- deactivated (offboarded) without deleting anything.
CREATE TABLE admin_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id integer NOT NULL REFERENCES users(id),
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text NOT NULL,
  before jsonb,
  after jsonb
);
-- The log is read newest first, filtered by actor, action or target.
CREATE INDEX admin_audit_at_idx ON admin_audit (at DESC, id DESC);
CREATE INDEX admin_audit_actor_idx ON admin_audit (actor_id, at DESC, id DESC);
CREATE INDEX admin_audit_target_idx ON admin_audit (target_type, target_id, at DESC, id DESC);

-- A deactivated person cannot sign in and has no live session; their rows and history stay.
ALTER TABLE users ADD COLUMN active boolean NOT NULL DEFAULT true;
ALTER TABLE users ADD COLUMN deactivated_at timestamptz;
