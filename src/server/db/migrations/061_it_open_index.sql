-- The IT queue filtered by form type (incidents or password resets still open at the IT helpdesk), newest first.
CREATE INDEX requests_it_open_idx ON requests (form_type, created_at DESC, id DESC) WHERE current_stage = 'it_helpdesk';
