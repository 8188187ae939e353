-- cover_chain (migration 151) followed a delegation through anybody: A away -> B, B away -> C made C cover A even
-- when B, the person in the middle, had been deactivated. Every person of the chain must be active now, not only
-- the covered one: a deactivated person in the middle breaks it (C covers neither B nor A through B).
CREATE OR REPLACE FUNCTION cover_chain(p_delegate integer)
RETURNS TABLE (covered_id integer, user_type text, name text, path integer[], starts_on date, ends_on date)
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE c(covered_id, path, starts_on, ends_on, depth) AS (
    SELECT o.user_id, ARRAY[o.user_id], o.starts_on, o.ends_on, 1
      FROM out_of_office o JOIN users h ON h.id = o.user_id
     WHERE o.delegate_id = p_delegate AND h.active
    UNION ALL
    SELECT o.user_id, c.path || o.user_id, greatest(c.starts_on, o.starts_on), least(c.ends_on, o.ends_on), c.depth + 1
      FROM c JOIN out_of_office o ON o.delegate_id = c.covered_id JOIN users h ON h.id = o.user_id
     WHERE c.depth < 3 AND o.user_id <> p_delegate AND o.user_id <> ALL(c.path) AND h.active
       AND greatest(c.starts_on, o.starts_on) <= least(c.ends_on, o.ends_on)
  )
  SELECT c.covered_id, u.user_type, u.first_name || ' ' || u.last_name, c.path, c.starts_on, c.ends_on
    FROM c JOIN users u ON u.id = c.covered_id
   WHERE u.active
$$;

-- A session's user carries the people they cover (cover_chain above), which depends on who is active: deactivating
-- someone drops every cached session user, so a delegate's next call no longer covers anyone through them.
CREATE TRIGGER session_signal_users_active AFTER UPDATE OF active ON users
  FOR EACH STATEMENT EXECUTE FUNCTION session_signal_all();
