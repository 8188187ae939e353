-- A waiting step the reminders sweep looked at today with nothing more due today: reminded today (or not yet due a
-- reminder by working days) and its escalation not due by working days, although it may be by calendar days (a
-- weekend or a holiday in between). Recorded for the business day, so the sweep's later passes that day do not read
-- it again (on a large company's backlog that was thousands of steps every ten minutes). What is due depends on the
-- limits and the calendar: any change to reminder_settings, company_settings or company_holidays forgets every
-- such record, so the next pass looks at those steps again (an escalation that falls due by a lowered limit is made
-- the same day).
ALTER TABLE approval_reminders DROP CONSTRAINT IF EXISTS approval_reminders_kind_check;
ALTER TABLE approval_reminders ADD CONSTRAINT approval_reminders_kind_check
  CHECK (kind IN ('reminder', 'escalation', 'no_escalation_target', 'nothing_due'));

CREATE OR REPLACE FUNCTION adminease_forget_nothing_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM approval_reminders WHERE kind = 'nothing_due';
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS reminder_settings_forget_nothing_due ON reminder_settings;
CREATE TRIGGER reminder_settings_forget_nothing_due AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reminder_settings
  FOR EACH STATEMENT EXECUTE FUNCTION adminease_forget_nothing_due();
DROP TRIGGER IF EXISTS company_settings_forget_nothing_due ON company_settings;
CREATE TRIGGER company_settings_forget_nothing_due AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON company_settings
  FOR EACH STATEMENT EXECUTE FUNCTION adminease_forget_nothing_due();
DROP TRIGGER IF EXISTS company_holidays_forget_nothing_due ON company_holidays;
CREATE TRIGGER company_holidays_forget_nothing_due AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON company_holidays
  FOR EACH STATEMENT EXECUTE FUNCTION adminease_forget_nothing_due();

-- Only today's are used; the sweep deletes older ones (and the triggers all of them) by this index.
CREATE INDEX IF NOT EXISTS approval_reminders_nothing_due ON approval_reminders (sent_on) WHERE kind = 'nothing_due';
