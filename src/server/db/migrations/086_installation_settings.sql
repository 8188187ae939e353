-- Facts about this installation that must survive restarts. 'demo_organisation' is recorded when the demo
-- organisation (with its published password) is loaded: only such a database can run in demo mode, and a later
-- start with demo mode off knows to refuse that password.
CREATE TABLE IF NOT EXISTS installation_settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Databases that were given the demo organisation before this table existed.
INSERT INTO installation_settings (key, value)
SELECT 'demo_organisation', 'loaded'
 WHERE EXISTS (SELECT 1 FROM users WHERE email = 'victoria.adams@adminease.test')
ON CONFLICT (key) DO NOTHING;
