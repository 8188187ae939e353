-- The line manager's and HR's Rejected filter: a stage rejection rejects the request, so rejected rows are found
-- through these (newest first, per line manager, per HR contact) instead of walking every decided request.
CREATE INDEX requests_manager_rejected_idx ON requests (line_manager_id, created_at DESC, id DESC) WHERE status = 'Rejected';
CREATE INDEX requests_hr_rejected_idx ON requests (hr_contact_id, created_at DESC, id DESC) WHERE status = 'Rejected';
