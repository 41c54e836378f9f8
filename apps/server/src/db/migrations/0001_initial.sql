-- Signpost initial schema. Ids are 21-character generated strings (spec §9).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE organizations (
  id text PRIMARY KEY,
  name text NOT NULL,
  -- Bumped by the triggers below on every change that can alter a menu, so that an
  -- unchanged menu is answered with 304 without being built.
  menu_version bigint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  email text NOT NULL,
  password_hash text,
  role text NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'admin')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One account per e-mail address, whatever its case, across the installation.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_organization_name_idx ON users (organization_id, lower(name), id);
CREATE INDEX users_name_trgm_idx ON users USING gin (lower(name) gin_trgm_ops);
CREATE INDEX users_email_trgm_idx ON users USING gin (lower(email) gin_trgm_ops);

CREATE TABLE teams (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  buddy_id text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX teams_organization_idx ON teams (organization_id);

CREATE TABLE team_memberships (
  team_id text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  role text NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'editor')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_memberships_user_idx ON team_memberships (user_id);

CREATE TABLE collections (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  owner_type text NOT NULL CHECK (owner_type IN ('user', 'team', 'organization')),
  owner_user_id text REFERENCES users (id) ON DELETE CASCADE,
  owner_team_id text REFERENCES teams (id) ON DELETE CASCADE,
  parent_id text REFERENCES collections (id) ON DELETE CASCADE,
  -- The user's own root collection ("My Space"): exactly one per person, never deleted.
  is_root boolean NOT NULL DEFAULT false,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  color text,
  position integer NOT NULL DEFAULT 0,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (
    (owner_type = 'user' AND owner_user_id IS NOT NULL AND owner_team_id IS NULL)
    OR (owner_type = 'team' AND owner_team_id IS NOT NULL AND owner_user_id IS NULL)
    OR (owner_type = 'organization' AND owner_user_id IS NULL AND owner_team_id IS NULL)
  ),
  CHECK (NOT is_root OR (owner_type = 'user' AND parent_id IS NULL)),
  CHECK (parent_id IS NULL OR parent_id <> id)
);
CREATE INDEX collections_parent_idx ON collections (parent_id);
CREATE INDEX collections_owner_user_idx ON collections (owner_user_id);
CREATE INDEX collections_owner_team_idx ON collections (owner_team_id);
CREATE INDEX collections_organization_idx ON collections (organization_id) WHERE owner_type = 'organization';
CREATE UNIQUE INDEX collections_one_root_per_user ON collections (owner_user_id) WHERE is_root;

CREATE TABLE links (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  url text NOT NULL,
  icon text,
  app_name text,
  position integer NOT NULL DEFAULT 0,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX links_collection_idx ON links (collection_id, position);

CREATE TABLE favorites (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  link_id text NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, link_id)
);
CREATE INDEX favorites_collection_idx ON favorites (collection_id);
CREATE INDEX favorites_link_idx ON favorites (link_id);

CREATE TABLE collection_shares (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  collection_id text NOT NULL UNIQUE REFERENCES collections (id) ON DELETE CASCADE,
  created_by text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE share_members (
  share_id text NOT NULL REFERENCES collection_shares (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (share_id, user_id)
);
CREATE INDEX share_members_user_idx ON share_members (user_id);

CREATE TABLE link_suggestions (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  suggested_by text REFERENCES users (id) ON DELETE SET NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  url text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'declined')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX link_suggestions_collection_idx ON link_suggestions (collection_id, status);

CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- SHA-256 of the bearer token, hex; the token itself is never stored.
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  user_agent text,
  ip text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Failed sign-ins, counted per key ('pair:<email>|<ip>', 'ip:<ip>', 'account:<email>') and
-- fixed window, in the database so that every server process sees the same counts.
CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  window_started_at timestamptz NOT NULL,
  failures integer NOT NULL,
  blocked_until timestamptz
);

-- Menu versioning: one statement-level trigger per table and event bumps the version of
-- every organization whose rows the statement touched.
CREATE FUNCTION bump_menu_version_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations SET menu_version = menu_version + 1
  WHERE id IN (SELECT DISTINCT organization_id FROM new_rows);
  RETURN NULL;
END $$;

CREATE FUNCTION bump_menu_version_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations SET menu_version = menu_version + 1
  WHERE id IN (SELECT DISTINCT organization_id FROM old_rows);
  RETURN NULL;
END $$;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['users', 'teams', 'team_memberships', 'collections', 'links',
                           'favorites', 'collection_shares', 'share_members']
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION bump_menu_version_new()', t || '_menu_ins', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION bump_menu_version_new()', t || '_menu_upd', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION bump_menu_version_old()', t || '_menu_del', t);
  END LOOP;
END $$;

-- The organization's own name is part of the menu too.
CREATE FUNCTION bump_own_menu_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name THEN
    NEW.menu_version := OLD.menu_version + 1;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER organizations_menu_name BEFORE UPDATE ON organizations
  FOR EACH ROW EXECUTE FUNCTION bump_own_menu_version();
