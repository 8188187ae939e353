-- The sweep that erases reset passwords past their time limit looks only at password resets that still hold a
-- ciphertext: few rows, found through this small partial index instead of a scan of every request.
CREATE INDEX IF NOT EXISTS requests_stored_reset_password_idx ON requests (id)
  WHERE form_type = 'password-reset' AND data->>'new_password_enc' IS NOT NULL;
