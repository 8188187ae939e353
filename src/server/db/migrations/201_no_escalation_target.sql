-- An overdue step whose escalation found nobody to go to (no manager, no group lead, no administrator that separation
-- of duties allows) is recorded for the business day, like a reminder: the sweep's later passes that day leave it
-- alone instead of trying again every ten minutes. The next business day it is tried again (people change).
ALTER TABLE approval_reminders DROP CONSTRAINT IF EXISTS approval_reminders_kind_check;
ALTER TABLE approval_reminders ADD CONSTRAINT approval_reminders_kind_check CHECK (kind IN ('reminder', 'escalation', 'no_escalation_target'));
