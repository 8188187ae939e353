-- Company settings changed by the administrator (issue 18): which regional holiday calendars apply, the company's
-- own holidays, and the leave policy's default annual allowance. Every change notifies the channel
-- adminease_calendar so each instance reloads the calendar it counts working days with.
CREATE TABLE IF NOT EXISTS company_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO company_settings (key, value) VALUES ('holiday_regions', '["IN"]'), ('default_annual_leave', '12')
ON CONFLICT (key) DO NOTHING;

CREATE TABLE IF NOT EXISTS company_holidays (
  id bigserial PRIMARY KEY,
  date date NOT NULL,
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
  -- true: the office is closed (leave days on it are not counted); false: on the calendar, a working day.
  closed boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS company_holidays_date_name ON company_holidays (date, lower(btrim(name)));

CREATE OR REPLACE FUNCTION adminease_calendar_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('adminease_calendar', '');
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS company_settings_changed ON company_settings;
CREATE TRIGGER company_settings_changed AFTER INSERT OR UPDATE OR DELETE ON company_settings
  FOR EACH STATEMENT EXECUTE FUNCTION adminease_calendar_changed();
DROP TRIGGER IF EXISTS company_holidays_changed ON company_holidays;
CREATE TRIGGER company_holidays_changed AFTER INSERT OR UPDATE OR DELETE ON company_holidays
  FOR EACH STATEMENT EXECUTE FUNCTION adminease_calendar_changed();
