-- Administration: organization settings, invited people, first-run setup codes, decided
-- suggestions and the audit log (docs/decisions/0040-administration.md).

-- 1. Organization settings (spec §1's footer addresses, the spaces' intro texts, sign-in
-- policy) and how long the audit log is kept.
ALTER TABLE organizations
  ADD COLUMN feedback_url text,
  ADD COLUMN consent_url text,
  ADD COLUMN personal_intro text NOT NULL DEFAULT '',
  ADD COLUMN team_intro text NOT NULL DEFAULT '',
  ADD COLUMN organization_intro text NOT NULL DEFAULT '',
  -- False makes an organization single-sign-on only: nobody signs in with a password.
  ADD COLUMN password_sign_in boolean NOT NULL DEFAULT true,
  -- The e-mail domains (lower case, no '@') for which single sign-on may create people.
  ADD COLUMN sso_domains text[] NOT NULL DEFAULT '{}',
  ADD COLUMN audit_retention_days integer NOT NULL DEFAULT 365
    CHECK (audit_retention_days BETWEEN 1 AND 3650),
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- The settings the menu shows are part of it, like the name.
CREATE OR REPLACE FUNCTION bump_own_menu_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.name, NEW.feedback_url, NEW.consent_url, NEW.personal_intro, NEW.team_intro,
      NEW.organization_intro)
     IS DISTINCT FROM
     (OLD.name, OLD.feedback_url, OLD.consent_url, OLD.personal_intro, OLD.team_intro,
      OLD.organization_intro) THEN
    NEW.menu_version := OLD.menu_version + 1;
  END IF;
  RETURN NEW;
END $$;

-- 2. People. An invited person exists from the invitation on (so that they can be put in
-- teams at once) but cannot sign in until they accept it and choose a password.
ALTER TABLE users DROP CONSTRAINT users_status_check;
ALTER TABLE users ADD CONSTRAINT users_status_check
  CHECK (status IN ('active', 'disabled', 'invited'));
ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;
-- The console's filters: by role and status, and "never signed in", in name order.
CREATE INDEX users_organization_role_idx ON users (organization_id, role, lower(name), id);
CREATE INDEX users_organization_status_idx ON users (organization_id, status, lower(name), id);

-- Team names are unique in an organization, whatever their case.
CREATE UNIQUE INDEX teams_organization_name_key ON teams (organization_id, lower(name));
CREATE INDEX team_memberships_team_role_idx ON team_memberships (team_id, role);

-- 3. Invitations and password links: a single-use link, valid for a limited time, that
-- lets a person choose their password. Only the SHA-256 of its token is stored.
CREATE TABLE invitations (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL DEFAULT 'invitation' CHECK (kind IN ('invitation', 'password-reset')),
  token_hash text NOT NULL UNIQUE,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX invitations_user_idx ON invitations (user_id);

-- 4. First-run setup: the SHA-256 of each code a starting server printed while the
-- installation had no organization. Any of them sets it up, once.
CREATE TABLE setup_codes (
  code_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

-- 5. Suggestions: who decided, when, why, and the link an accepted one became.
ALTER TABLE link_suggestions
  ADD COLUMN decided_by text REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN decided_at timestamptz,
  ADD COLUMN reason text NOT NULL DEFAULT '',
  ADD COLUMN link_id text REFERENCES links (id) ON DELETE SET NULL,
  ADD CHECK ((status = 'open') = (decided_at IS NULL));
CREATE INDEX link_suggestions_open_idx ON link_suggestions (organization_id, created_at)
  WHERE status = 'open';
CREATE INDEX link_suggestions_suggested_by_idx ON link_suggestions (suggested_by, created_at);

-- 6. The audit log: every administrative action and security event. The application
-- only ever adds to it; the database refuses any change and any deletion but that of
-- entries older than their organization keeps them (the retention job).
CREATE TABLE audit_log (
  id text PRIMARY KEY,
  -- Null only for events before any organization exists (a refused setup attempt).
  organization_id text REFERENCES organizations (id) ON DELETE CASCADE,
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- Who did it; null for the system or an unknown person. Name and e-mail are kept as
  -- they were, so that the entry still reads right after the person changed or went.
  actor_id text,
  actor_name text,
  actor_email text,
  -- A dotted name such as 'person.disabled' or 'sign-in.failed'.
  action text NOT NULL,
  target_type text,
  target_id text,
  target_label text,
  ip text,
  user_agent text,
  before jsonb,
  after jsonb,
  details jsonb
);
CREATE INDEX audit_log_organization_time_idx ON audit_log (organization_id, occurred_at DESC, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (organization_id, actor_id, occurred_at DESC);
CREATE INDEX audit_log_target_idx ON audit_log (organization_id, target_id, occurred_at DESC);
CREATE INDEX audit_log_action_idx ON audit_log (organization_id, action, occurred_at DESC);

CREATE FUNCTION audit_log_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keep integer;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'the audit log cannot be changed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION 'the audit log cannot be emptied' USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- DELETE: only entries past their organization's retention, or of a deleted organization.
  SELECT audit_retention_days INTO keep FROM organizations WHERE id = OLD.organization_id;
  IF FOUND AND OLD.occurred_at > now() - make_interval(days => keep) THEN
    RAISE EXCEPTION 'audit entries are kept for % days', keep USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_guard();
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_guard();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_guard();
