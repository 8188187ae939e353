-- One row the health check updates: a write that fails when the server cannot store changes (read-only,
-- a full WAL disk, too many connections, ...), so GET /api/health does not say "ok" while every write fails.
CREATE TABLE IF NOT EXISTS health_probe (
  id smallint PRIMARY KEY CHECK (id = 1),
  checked_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO health_probe (id) VALUES (1) ON CONFLICT (id) DO NOTHING;
