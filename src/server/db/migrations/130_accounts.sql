-- Accounts (issue 18): invitations and the first-run set-up link, a forced password change, sign-in state of
-- single sign-on, and the history of every account change.

-- Set by an administrator: the person must choose a new password before anything else (the edge refuses other
-- calls until then). Shown with the session's user, so a change drops every cached session user.
ALTER TABLE users ADD COLUMN IF NOT EXISTS must_change_password boolean NOT NULL DEFAULT false;
CREATE TRIGGER session_signal_users_password_flag AFTER UPDATE OF must_change_password ON users
  FOR EACH STATEMENT EXECUTE FUNCTION session_signal_all();

-- Single-use links that set a password: 'invite' for one person, 'setup' for the first administrator. Only a
-- SHA-256 hash of the token is stored; a link is dead once used, revoked (a newer invitation) or expired.
CREATE TABLE password_tokens (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  purpose text NOT NULL CHECK (purpose IN ('invite', 'setup')),
  user_id integer REFERENCES users(id) ON DELETE CASCADE,
  created_by integer REFERENCES users(id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz,
  CHECK ((purpose = 'invite') = (user_id IS NOT NULL))
);
CREATE INDEX password_tokens_open_idx ON password_tokens (user_id) WHERE used_at IS NULL AND revoked_at IS NULL;

-- An OpenID Connect sign-in under way: its state (hashed), PKCE verifier and nonce, read once by the callback on
-- whichever instance it reaches.
CREATE TABLE oidc_logins (
  state_hash text PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  created_at timestamptz NOT NULL
);

-- What happened to an account, by whom (null: the person themselves or the system). Never holds a password.
CREATE TABLE account_events (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  actor_id integer REFERENCES users(id),
  kind text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL
);
CREATE INDEX account_events_user_idx ON account_events (user_id, created_at);
