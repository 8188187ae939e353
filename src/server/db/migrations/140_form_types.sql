-- Form types and approval chains as data (issue 20). The 23 built-in types live in code (src/domain/forms.ts) and
-- are the starting configuration: a row here exists only once an administrator saved a type (a built-in one they
-- edited, or one they defined). Every save makes a new version; a request keeps the version and the resolved chain
-- (its approval rows) it was submitted with.
CREATE TABLE form_types (
  form_type text PRIMARY KEY,
  builtin boolean NOT NULL,
  version integer NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- the type as the admin API answers it: { form_type, title, category, description, enabled, fields, chain, ... }
  definition jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE form_type_versions (
  form_type text NOT NULL REFERENCES form_types(form_type) ON DELETE CASCADE,
  version integer NOT NULL,
  definition jsonb NOT NULL,
  created_by integer REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (form_type, version)
);

-- Named groups of approvers an administrator defines ('group:<name>' in a chain), beside the built-in groups
-- (hr, finance, it, facilities_desk, facilities_manager) whose membership is the user_type.
CREATE TABLE approver_groups (
  name text PRIMARY KEY,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE approver_group_members (
  group_name text NOT NULL REFERENCES approver_groups(name) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id),
  PRIMARY KEY (group_name, user_id)
);
CREATE INDEX approver_group_members_user_idx ON approver_group_members (user_id);

-- The version of its type a request was submitted with (1: the code's built-in definition).
ALTER TABLE requests ADD COLUMN form_type_version integer NOT NULL DEFAULT 1;

-- A stage of a chain defined as data: its approver ('line_manager', 'managers_manager', 'group:<name>',
-- 'person:<employee_code>'), the people resolved when the request was submitted (line manager, their manager, the
-- named person, an admin-defined group's members; null for a built-in group, whose members are its user_type), the
-- stage's label and its condition. Null approver: a built-in chain stage, decided by the built-in rules.
ALTER TABLE approvals ADD COLUMN approver text;
ALTER TABLE approvals ADD COLUMN approver_ids integer[];
ALTER TABLE approvals ADD COLUMN stage_label text;
ALTER TABLE approvals ADD COLUMN condition jsonb;
CREATE INDEX approvals_data_chain_pending_idx ON approvals (approver, request_pk) WHERE approver IS NOT NULL AND decision = 'Pending';
CREATE INDEX approvals_data_chain_ids_idx ON approvals USING gin (approver_ids) WHERE approver IS NOT NULL AND decision = 'Pending';

-- Every instance reloads its registry when a type changes (src/server/form-types/registry-sync.ts).
CREATE FUNCTION form_types_signal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('adminease_form_types', '');
  RETURN NULL;
END $$;
CREATE TRIGGER form_types_signal AFTER INSERT OR UPDATE OR DELETE ON form_types
  FOR EACH STATEMENT EXECUTE FUNCTION form_types_signal();
