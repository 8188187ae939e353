-- Assistant: a session's messages are read newest first (conversation-history, the external model's context).
CREATE INDEX IF NOT EXISTS chat_messages_session_idx ON chat_messages (session_id, id DESC) WHERE session_id IS NOT NULL;
-- A user's live sessions of one family (status, logout, cleanup, the default session of a chat turn).
CREATE INDEX IF NOT EXISTS ai_sessions_user_family_idx ON ai_sessions (user_id, family, last_activity_at DESC) WHERE ended_at IS NULL;
