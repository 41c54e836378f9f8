-- SCIM 2.0 provisioning (decision 0084): the bearer tokens of the organization's identity
-- system, its ids and names for people and teams, what it sent that Signpost keeps no column
-- for, and where each team membership came from.

-- A token opens /scim/v2 of its organization and nothing else; only its hash is stored.
CREATE TABLE scim_tokens (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  token_hint text NOT NULL,
  -- Who made it, and their name as it was (the list still reads right after they went).
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_by_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX scim_tokens_organization_idx ON scim_tokens (organization_id, created_at DESC);

-- A person as the identity system knows them: its `userName` when it differs from the e-mail
-- address, its `externalId`, the attributes it sent that have no column (name parts, title,
-- the enterprise extension…), given back as sent; when it disabled them (SCIM enables again
-- only whom it disabled: a person an administrator disabled stays so); and when it deleted
-- them (the person stays, disabled, until an administrator decides what becomes of their
-- content).
ALTER TABLE users
  ADD COLUMN scim_user_name text,
  ADD COLUMN external_id text,
  ADD COLUMN scim_attributes jsonb,
  ADD COLUMN scim_disabled_at timestamptz,
  ADD COLUMN scim_deleted_at timestamptz;
-- A SCIM `userName` is unique in the organization, compared case-insensitively; a person the
-- console made answers to their e-mail address.
CREATE UNIQUE INDEX users_scim_user_name_key
  ON users (organization_id, lower(coalesce(scim_user_name, email)));
CREATE INDEX users_external_id_idx ON users (organization_id, external_id)
  WHERE external_id IS NOT NULL;

-- A team as a SCIM Group; a group deleted by SCIM whose team holds content stays a team of
-- the console, no longer a group (`scim_deleted_at`): content is never lost to a sync.
ALTER TABLE teams
  ADD COLUMN external_id text,
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN scim_deleted_at timestamptz;
CREATE INDEX teams_external_id_idx ON teams (organization_id, external_id)
  WHERE external_id IS NOT NULL;

-- Where a membership came from: by hand in the console (every membership before SCIM), from
-- SCIM, from a sign-in's groups. It lasts while any source holds it: a sync takes away its
-- own source only, so a membership made by hand is never removed by one.
ALTER TABLE team_memberships
  ADD COLUMN from_console boolean NOT NULL DEFAULT true,
  ADD COLUMN from_scim boolean NOT NULL DEFAULT false,
  ADD COLUMN from_sign_in boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT team_memberships_some_source CHECK (from_console OR from_scim OR from_sign_in);

-- A team's `lastModified` (SCIM `meta`): its own changes. Its memberships' are read from
-- them (a membership's change is not a change of the team row, which every member's menu
-- follows).
CREATE FUNCTION teams_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END $$;
CREATE TRIGGER teams_touch BEFORE UPDATE OF name, external_id ON teams
  FOR EACH ROW EXECUTE FUNCTION teams_touch();

-- Teams from a sign-in's groups (OpenID Connect): per provider, the claim that lists the
-- person's groups, and which group gives which team (as member or editor) or the
-- administrator role. Edited in the console and audited.
CREATE TABLE sso_group_claims (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  provider_id text NOT NULL,
  claim text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, provider_id)
);

CREATE TABLE sso_group_mappings (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  provider_id text NOT NULL,
  -- The group as the claim names it: an id or a name, compared exactly.
  group_value text NOT NULL,
  team_id text REFERENCES teams (id) ON DELETE CASCADE,
  team_role text CHECK (team_role IN ('member', 'editor')),
  grants_admin boolean NOT NULL DEFAULT false,
  CHECK ((team_id IS NULL) = (team_role IS NULL)),
  CHECK (team_id IS NOT NULL OR grants_admin)
);
CREATE INDEX sso_group_mappings_provider_idx
  ON sso_group_mappings (organization_id, provider_id);

-- An administrator by a sign-in's groups: the next sign-in without such a group makes them a
-- member again (one made administrator by hand is never demoted by a sign-in).
ALTER TABLE users ADD COLUMN admin_from_sign_in boolean NOT NULL DEFAULT false;
