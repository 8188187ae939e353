-- E-mail people can act on (issue 22): the approve/reject links of approvers' e-mails, one row per e-mail and
-- approver, bound to the request, its stage and the request's version; used once (used_at) and expiring. The token
-- in the link is the row id with an HMAC of the row's binding (src/server/email/links.ts).
CREATE TABLE email_action_links (
  id text PRIMARY KEY,
  approver_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  request_pk bigint NOT NULL REFERENCES requests(id) ON DELETE CASCADE,
  stage text NOT NULL,
  -- the request's version (requests.revision) the e-mail showed
  revision integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  used_decision text
);
CREATE INDEX email_action_links_request_idx ON email_action_links (request_pk);
CREATE INDEX email_action_links_expiry_idx ON email_action_links (expires_at);

-- The daily digest: notifications held for it (email_state 'digest'), and one row per organisation day once an
-- instance has started that day's digest, so it goes out once a day across all instances.
CREATE INDEX notifications_email_digest_idx ON notifications (user_id, id) WHERE email_state = 'digest';
CREATE TABLE email_digest_runs (
  day date PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  sent integer NOT NULL DEFAULT 0
);
