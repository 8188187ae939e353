-- A request's version as people see it: a counter that grows on every change of its content, state or stage
-- (an owner's edit, a decision, IT work, a withdrawal). Approvers' screens show it and their decisions send it
-- back; a decision made on an older version than the stored one is refused. A trigger keeps it, so no writer
-- can forget it.
ALTER TABLE requests ADD COLUMN revision integer NOT NULL DEFAULT 1;

CREATE FUNCTION requests_bump_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.data IS DISTINCT FROM OLD.data OR NEW.status IS DISTINCT FROM OLD.status
     OR NEW.current_stage IS DISTINCT FROM OLD.current_stage THEN
    NEW.revision := OLD.revision + 1;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER requests_revision BEFORE UPDATE ON requests FOR EACH ROW EXECUTE FUNCTION requests_bump_revision();
