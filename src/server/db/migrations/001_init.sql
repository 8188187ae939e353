-- AdminEase schema: people, sessions, requests with one approval row per stage, the append-only event log,
-- notifications read from it, and the assistant's sessions and chat history.

CREATE TABLE departments (
  code text PRIMARY KEY,
  name text NOT NULL
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  role text NOT NULL,
  user_type text NOT NULL,
  department_code text REFERENCES departments(code),
  employee_code text NOT NULL UNIQUE,
  hr_id text UNIQUE,
  manager_id integer REFERENCES users(id),
  hr_contact_id integer REFERENCES users(id),
  join_date date,
  annual_leave_total numeric(5,1) NOT NULL DEFAULT 12,
  preferences jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_manager_idx ON users (manager_id);
CREATE INDEX users_hr_contact_idx ON users (hr_contact_id);

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_activity_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE requests (
  id bigserial PRIMARY KEY,
  request_id text NOT NULL UNIQUE,
  form_type text NOT NULL,
  employee_id integer NOT NULL REFERENCES users(id),
  -- the employee's line manager and HR contact when the request was made: queues read these
  line_manager_id integer REFERENCES users(id),
  hr_contact_id integer REFERENCES users(id),
  status text NOT NULL DEFAULT 'Pending',
  -- first stage still waiting for a decision; null once the chain has ended
  current_stage text,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX requests_employee_created_idx ON requests (employee_id, created_at DESC, id DESC);
CREATE INDEX requests_manager_created_idx ON requests (line_manager_id, created_at DESC, id DESC);
CREATE INDEX requests_hr_created_idx ON requests (hr_contact_id, created_at DESC, id DESC)
  WHERE form_type IN ('leave-request', 'info-update');
CREATE INDEX requests_type_created_idx ON requests (form_type, created_at DESC, id DESC);
CREATE INDEX requests_stage_created_idx ON requests (current_stage, created_at DESC, id DESC) WHERE current_stage IS NOT NULL;

CREATE TABLE approvals (
  request_pk bigint NOT NULL REFERENCES requests(id) ON DELETE CASCADE,
  stage text NOT NULL,
  seq smallint NOT NULL,
  decision text NOT NULL DEFAULT 'Pending',
  signer_id integer REFERENCES users(id),
  signer_name text,
  decided_at timestamptz,
  rejection_reason text,
  comments text,
  PRIMARY KEY (request_pk, stage)
);

CREATE TABLE request_events (
  id bigserial PRIMARY KEY,
  request_pk bigint REFERENCES requests(id) ON DELETE CASCADE,
  actor_id integer REFERENCES users(id),
  event_type text NOT NULL,
  stage text,
  field text,
  old_value text,
  new_value text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX request_events_request_idx ON request_events (request_pk, id);

CREATE TABLE notifications (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  event_id bigint REFERENCES request_events(id) ON DELETE CASCADE,
  request_pk bigint REFERENCES requests(id) ON DELETE CASCADE,
  title text NOT NULL,
  form_type text,
  form_id text,
  approval_field text,
  old_value text,
  new_value text,
  change_type text NOT NULL DEFAULT 'other',
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz
);
CREATE INDEX notifications_user_idx ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id, id) WHERE read_at IS NULL;

CREATE TABLE form_state_snapshots (
  user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  snapshot_at timestamptz NOT NULL,
  last_notification_id bigint NOT NULL DEFAULT 0
);

CREATE TABLE ai_sessions (
  session_id text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  family text NOT NULL,
  user_role text NOT NULL,
  state jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_activity_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz
);
CREATE INDEX ai_sessions_user_idx ON ai_sessions (user_id, last_activity_at DESC);

CREATE TABLE chat_messages (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_id text,
  family text,
  message_type text NOT NULL,
  content text NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_messages_user_idx ON chat_messages (user_id, id DESC);

CREATE TABLE app_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);
