-- The job scheduler (src/server/jobs/, docs/jobs.md): one table of jobs that every server instance polls.
-- A recurring job's run is one row whose key names the job and its slot (e.g. 'reminders-sweep@2026-11-24T10:05Z'):
-- the unique key lets every instance offer the run and exactly one row exist. A run is claimed with
-- FOR UPDATE SKIP LOCKED and a lease (locked_until): an instance that dies mid-run leaves it to be claimed again.
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  key text,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  run_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  locked_by text,
  locked_until timestamptz,
  done_at timestamptz,
  failed_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX jobs_key_unique ON jobs (key) WHERE key IS NOT NULL;
-- The poll: jobs still to run, by when they are due.
CREATE INDEX jobs_due ON jobs (run_at) WHERE done_at IS NULL AND failed_at IS NULL;
