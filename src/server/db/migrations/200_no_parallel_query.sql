-- Many short statements from many people at once (an OLTP load): a parallel plan only costs here. Measured on the
-- 1,000,000-request bench database, the HR queue's statement picked a parallel Gather Merge for one branch
-- whose estimate was 754 rows and which found none: starting the worker took 16 of its 25 ms. Every session of
-- this database plans without parallel workers (ALTER DATABASE ... SET, so a pooler in transaction mode needs no
-- startup option and the bench's raw replay runs with the same setting). A role that may not alter the database
-- keeps PostgreSQL's default, with a notice.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET max_parallel_workers_per_gather = 0', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'max_parallel_workers_per_gather left at its default: % may not alter database %', current_user, current_database();
END
$$;
