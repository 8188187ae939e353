-- The people of a group stage (finance, facilities desk, facilities manager, IT), found for the notifications of
-- every decision that moves a request to that stage: without this, a scan of every user.
CREATE INDEX users_type_idx ON users (user_type, id);
