-- Requests whose line manager is also their HR contact: when that person decided the line-manager step, the HR
-- step goes to the other HR staff (one person decides at most one step of a request). This small index lets
-- the HR queue find those requests without walking every request waiting on HR.
CREATE INDEX requests_hr_delegated_idx ON requests (created_at DESC, id DESC)
  WHERE line_manager_id = hr_contact_id AND form_type IN ('leave-request', 'info-update');
