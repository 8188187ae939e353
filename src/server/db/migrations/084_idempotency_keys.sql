-- Idempotency-Key of writes (submissions, edits, withdrawals, decisions): per user and key, the fingerprint of
-- the call (method, path, body) and, once done, the answer given. A repeat answers the stored answer instead of
-- doing the write again; a key is forgotten 24 hours after its first use.
CREATE TABLE idempotency_keys (
  user_id integer NOT NULL,
  idem_key text NOT NULL,
  fingerprint text NOT NULL,
  status integer,
  headers jsonb,
  body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (user_id, idem_key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
