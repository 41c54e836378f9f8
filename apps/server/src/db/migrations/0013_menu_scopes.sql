-- Menu freshness per scope instead of per organization
-- (docs/decisions/0057-menu-freshness-per-scope.md).
--
-- A person's menu is built from a few scopes, each versioned on its own row of menu_scopes:
--   p:<user>   their own collections and links, favorites, team roles, role, name;
--   t:<team>   a team's collections and links, name and buddy;
--   te:<team>  what only a team's editors (and administrators) see: its open suggestions;
--   s:<share>  a shared collection's tree and its members;
--   o:<org>    the organization's collections and links and its settings;
--   oa:<org>   what only administrators see: the organization space's open suggestions;
--   e:<org>    the whole organization, bumped only by a transaction too large to list;
--   pe:<org>   the organization's people as peer search shows them (name, e-mail, status),
--              in no menu: the version the peer directories follow (decision 0060).
-- The ETag of a person's menu is a digest of the versions of the scopes they see
-- (signpost_menu_etag below), so a write changes the ETags of exactly the people who can see
-- it, and writers in different scopes never lock a common row.
--
-- As before (decision 0030) a transaction bumps each scope it touched once, while it
-- commits: statement triggers note the scopes of the rows a statement changed in a
-- transaction-local setting, and one deferred constraint trigger per transaction bumps them
-- all at commit, in scope order (no deadlock between transactions bumping the same scopes),
-- and announces them with NOTIFY (delivered at commit, to every server instance).

CREATE SEQUENCE menu_scope_version;

-- Versions come from one sequence, so a version is never used twice, not even by a scope
-- whose row was deleted and made again: a digest of versions never repeats for a new state.
-- A scope's version also only grows, in commit order (the bump takes the row's lock, and
-- takes the larger of the next number and its version plus one).
CREATE TABLE menu_scopes (
  scope text PRIMARY KEY,
  version bigint NOT NULL
);

-- The old organization-wide version and everything that bumped it.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['users', 'teams', 'team_memberships', 'collections', 'links',
                           'favorites', 'collection_shares', 'share_members',
                           'link_suggestions']
  LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_menu_ins', t);
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_menu_upd', t);
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_menu_del', t);
  END LOOP;
END $$;
DROP TRIGGER organizations_menu_name ON organizations;
DROP FUNCTION bump_own_menu_version();
DROP FUNCTION bump_menu_version_at_commit();
DROP FUNCTION menu_change_first(text);
ALTER TABLE organizations DROP COLUMN menu_version;

-- Buddies are looked up by person when a person's name changes.
CREATE INDEX teams_buddy_idx ON teams (buddy_id) WHERE buddy_id IS NOT NULL;

-- A transaction noting more than this many scopes (a bulk load, an import) bumps its
-- organizations' e: scope instead: everyone's menu there is new, and the list stays short.
CREATE FUNCTION menu_scopes_limit() RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT 500';

-- True for the first row a transaction changes in a menu's tables: that row's deferred event
-- is the transaction's one bump at commit. Rolled back with a savepoint, like the event.
CREATE FUNCTION menu_event_first(relevant boolean DEFAULT true) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF NOT relevant OR current_setting('signpost.menu_event', true) = '1' THEN
    RETURN false;
  END IF;
  PERFORM set_config('signpost.menu_event', '1', true);
  RETURN true;
END $$;

-- Adds scopes to the transaction's list (kept as '|a|b|'), or the organizations' e: scopes
-- when the list would grow past the limit.
CREATE FUNCTION menu_note(scopes text[], orgs text[]) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  pending text := coalesce(nullif(current_setting('signpost.menu_scopes', true), ''), '|');
  noted integer := coalesce(nullif(current_setting('signpost.menu_noted', true), ''), '0')::integer;
  s text;
BEGIN
  IF coalesce(cardinality(scopes), 0) = 0 THEN
    RETURN;
  END IF;
  IF noted + cardinality(scopes) > menu_scopes_limit() THEN
    scopes := ARRAY(SELECT 'e:' || o FROM unnest(orgs) o WHERE o IS NOT NULL);
  END IF;
  FOREACH s IN ARRAY scopes LOOP
    IF s IS NOT NULL AND strpos(pending, '|' || s || '|') = 0 THEN
      pending := pending || s || '|';
      noted := noted + 1;
    END IF;
  END LOOP;
  PERFORM set_config('signpost.menu_scopes', pending, true);
  PERFORM set_config('signpost.menu_noted', noted::text, true);
END $$;

-- The scope of a collection's owner.
CREATE FUNCTION menu_owner_scope(owner_type text, owner_user_id text, owner_team_id text,
                                 organization_id text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE owner_type WHEN 'user' THEN 'p:' || owner_user_id
                         WHEN 'team' THEN 't:' || owner_team_id
                         ELSE 'o:' || organization_id END
$$;

-- The transition tables a statement trigger of this event has: new rows, old rows, or both.
CREATE FUNCTION menu_changed_tables(op text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE op WHEN 'INSERT' THEN ARRAY['new_rows']
                 WHEN 'DELETE' THEN ARRAY['old_rows']
                 ELSE ARRAY['new_rows', 'old_rows'] END
$$;

-- The scopes of collections that exist: their owner's, and every share of the collection or
-- of a collection above it (whose members see it).
CREATE FUNCTION menu_collection_scopes(ids text[]) RETURNS text[]
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE up(id, parent_id, depth) AS (
    SELECT c.id, c.parent_id, 0 FROM collections c
    WHERE c.id = ANY (ids) AND c.owner_type = 'user'
    UNION ALL
    SELECT p.id, p.parent_id, up.depth + 1 FROM collections p
    JOIN up ON p.id = up.parent_id
    WHERE up.depth < 100
  )
  SELECT ARRAY(
    SELECT menu_owner_scope(c.owner_type, c.owner_user_id, c.owner_team_id, c.organization_id)
    FROM collections c WHERE c.id = ANY (ids)
    UNION
    SELECT 's:' || s.id FROM collection_shares s WHERE s.collection_id IN (SELECT id FROM up))
$$;

-- Notes the scopes of collections by id; past the limit, their organizations' e: scopes.
CREATE FUNCTION menu_note_collections(ids text[]) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  IF cardinality(ids) > menu_scopes_limit() THEN
    PERFORM menu_note(ARRAY(SELECT DISTINCT 'e:' || c.organization_id FROM collections c
                            WHERE c.id = ANY (ids)),
                      ARRAY(SELECT DISTINCT c.organization_id FROM collections c
                            WHERE c.id = ANY (ids)));
  ELSE
    PERFORM menu_note(menu_collection_scopes(ids),
                      ARRAY(SELECT DISTINCT c.organization_id FROM collections c
                            WHERE c.id = ANY (ids)));
  END IF;
END $$;

-- One statement trigger per table and event: what the changed rows touch. Links are the
-- hottest write: their trigger's statements are written out, so that their plans are kept
-- per connection; the others read their transition tables through EXECUTE.
CREATE FUNCTION menu_note_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM menu_note_collections(ARRAY(SELECT DISTINCT collection_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM menu_note_collections(ARRAY(SELECT DISTINCT collection_id FROM old_rows));
  ELSE
    PERFORM menu_note_collections(ARRAY(SELECT collection_id FROM new_rows
                                        UNION SELECT collection_id FROM old_rows));
  END IF;
  RETURN NULL;
END $$;

-- A collection's own owner (from the row: it may be gone), and the scopes of the collection
-- and its parent that still exist (shares of it and above it).
CREATE FUNCTION menu_note_collection_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owners text[] := '{}';
  orgs text[] := '{}';
  ids text[] := '{}';
  more_owners text[];
  more_orgs text[];
  more_ids text[];
  t text;
BEGIN
  FOREACH t IN ARRAY menu_changed_tables(TG_OP) LOOP
    EXECUTE format('SELECT array_agg(DISTINCT menu_owner_scope(r.owner_type, r.owner_user_id, '
                   '                                           r.owner_team_id, r.organization_id)), '
                   '       array_agg(DISTINCT r.organization_id), '
                   '       array_agg(DISTINCT x.id) FILTER (WHERE x.id IS NOT NULL) '
                   'FROM %I r CROSS JOIN LATERAL (VALUES (r.id), (r.parent_id)) x(id)', t)
      INTO more_owners, more_orgs, more_ids;
    owners := owners || more_owners;
    orgs := orgs || more_orgs;
    ids := ids || more_ids;
  END LOOP;
  IF cardinality(owners) > menu_scopes_limit() OR cardinality(ids) > menu_scopes_limit() THEN
    PERFORM menu_note(ARRAY(SELECT DISTINCT 'e:' || o FROM unnest(orgs) o), orgs);
  ELSE
    PERFORM menu_note(owners, orgs);
    PERFORM menu_note(menu_collection_scopes(ids), orgs);
  END IF;
  RETURN NULL;
END $$;

-- Rows whose scope is named by one of their columns: favorites and team roles (the person's
-- p:), teams (t:), shares (s:) and share members (s:, everyone in the share and its owner,
-- whose ETags list it). The trigger's arguments give the prefix and the column.
CREATE FUNCTION menu_note_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  scopes text[];
  orgs text[];
  t text;
BEGIN
  FOREACH t IN ARRAY menu_changed_tables(TG_OP) LOOP
    EXECUTE format('SELECT array_agg(DISTINCT %L || %I), array_agg(DISTINCT organization_id) '
                   'FROM %I', TG_ARGV[0], TG_ARGV[1], t)
      INTO scopes, orgs;
    PERFORM menu_note(scopes, orgs);
  END LOOP;
  RETURN NULL;
END $$;

-- Open suggestions are counted for a team's editors, and the organization space's for
-- administrators.
CREATE FUNCTION menu_note_suggestion_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[] := '{}';
  more text[];
  t text;
BEGIN
  FOREACH t IN ARRAY menu_changed_tables(TG_OP) LOOP
    EXECUTE format('SELECT array_agg(DISTINCT collection_id) FROM %I', t) INTO more;
    ids := ids || more;
  END LOOP;
  PERFORM menu_note(
    ARRAY(SELECT DISTINCT CASE c.owner_type WHEN 'team' THEN 'te:' || c.owner_team_id
                                            ELSE 'oa:' || c.organization_id END
          FROM collections c WHERE c.id = ANY (ids) AND c.owner_type <> 'user'),
    ARRAY(SELECT DISTINCT c.organization_id FROM collections c WHERE c.id = ANY (ids)));
  RETURN NULL;
END $$;

-- A person added or deleted: the organization's people (pe:). A person's name, e-mail, status
-- or role: the organization's people, their own menu (their role decides what they may
-- do), the teams they are the buddy of and the shares they are a member of (where others see
-- their name). A new person is in nobody's menu yet; a deleted one leaves through the rows
-- that cascade (memberships, shares, buddies).
CREATE FUNCTION menu_note_people() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
  orgs text[];
BEGIN
  IF TG_OP IN ('INSERT', 'DELETE') THEN
    -- Someone new, or gone: peer search's list of the organization's people.
    IF TG_OP = 'INSERT' THEN
      orgs := ARRAY(SELECT DISTINCT organization_id FROM new_rows);
    ELSE
      orgs := ARRAY(SELECT DISTINCT organization_id FROM old_rows);
    END IF;
    PERFORM menu_note(ARRAY(SELECT 'pe:' || o FROM unnest(orgs) o), orgs);
    RETURN NULL;
  END IF;
  SELECT array_agg(n.id), array_agg(DISTINCT n.organization_id) INTO changed, orgs
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE (n.name, n.email, n.status, n.role) IS DISTINCT FROM (o.name, o.email, o.status, o.role);
  IF changed IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM menu_note(ARRAY(SELECT 'pe:' || o FROM unnest(orgs) o), orgs);
  IF cardinality(changed) > menu_scopes_limit() THEN
    PERFORM menu_note(ARRAY(SELECT 'e:' || o FROM unnest(orgs) o), orgs);
    RETURN NULL;
  END IF;
  PERFORM menu_note(ARRAY(SELECT 'p:' || id FROM unnest(changed) id
                          UNION SELECT 't:' || t.id FROM teams t WHERE t.buddy_id = ANY (changed)
                          UNION SELECT 's:' || m.share_id FROM share_members m
                                WHERE m.user_id = ANY (changed)),
                    orgs);
  RETURN NULL;
END $$;

CREATE FUNCTION menu_note_organization() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM menu_note(
    ARRAY(SELECT 'o:' || n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
          WHERE (n.name, n.feedback_url, n.consent_url, n.personal_intro, n.team_intro,
                 n.organization_intro)
                IS DISTINCT FROM
                (o.name, o.feedback_url, o.consent_url, o.personal_intro, o.team_intro,
                 o.organization_intro)),
    ARRAY(SELECT id FROM new_rows));
  RETURN NULL;
END $$;

-- At commit, once per transaction: bumps every noted scope in scope order and announces them
-- on the channel signpost_menu ("scope scope …", at most about 7,000 bytes a message).
CREATE FUNCTION menu_bump_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pending text := coalesce(current_setting('signpost.menu_scopes', true), '');
  scopes text[];
  message text := '';
  s text;
BEGIN
  -- A later change of the same transaction (after SET CONSTRAINTS … IMMEDIATE) queues anew.
  PERFORM set_config('signpost.menu_event', '', true);
  PERFORM set_config('signpost.menu_scopes', '', true);
  PERFORM set_config('signpost.menu_noted', '', true);
  scopes := ARRAY(SELECT DISTINCT x FROM unnest(string_to_array(pending, '|')) x
                  WHERE x <> '' ORDER BY x);
  IF cardinality(scopes) = 0 THEN
    RETURN NULL;
  END IF;
  INSERT INTO menu_scopes (scope, version)
    SELECT x, nextval('menu_scope_version') FROM unnest(scopes) x ORDER BY x
    ON CONFLICT (scope) DO UPDATE
      SET version = greatest(EXCLUDED.version, menu_scopes.version + 1);
  FOREACH s IN ARRAY scopes LOOP
    IF octet_length(message) + octet_length(s) > 7000 THEN
      PERFORM pg_notify('signpost_menu', message);
      message := '';
    END IF;
    message := CASE WHEN message = '' THEN s ELSE message || ' ' || s END;
  END LOOP;
  PERFORM pg_notify('signpost_menu', message);
  RETURN NULL;
END $$;

DO $$
DECLARE
  t text;
  f text;
BEGIN
  FOREACH t IN ARRAY ARRAY['links', 'collections', 'favorites', 'team_memberships', 'teams',
                           'collection_shares', 'share_members', 'link_suggestions']
  LOOP
    f := CASE t WHEN 'links' THEN 'menu_note_links()'
                WHEN 'collections' THEN 'menu_note_collection_rows()'
                WHEN 'favorites' THEN 'menu_note_rows(''p:'', ''user_id'')'
                WHEN 'team_memberships' THEN 'menu_note_rows(''p:'', ''user_id'')'
                WHEN 'teams' THEN 'menu_note_rows(''t:'', ''id'')'
                WHEN 'collection_shares' THEN 'menu_note_rows(''s:'', ''id'')'
                WHEN 'share_members' THEN 'menu_note_rows(''s:'', ''share_id'')'
                ELSE 'menu_note_suggestion_rows()' END;
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION %s', t || '_menu_note_ins', t, f);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I '
                   'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION %s', t || '_menu_note_upd', t, f);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION %s', t || '_menu_note_del', t, f);
    -- The WHEN clause runs as the row changes: only the transaction's first row queues the
    -- deferred event.
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I '
                   'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW '
                   'WHEN (menu_event_first()) '
                   'EXECUTE FUNCTION menu_bump_at_commit()', t || '_menu_bump', t);
  END LOOP;
END $$;

CREATE TRIGGER users_menu_note_ins AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION menu_note_people();
CREATE TRIGGER users_menu_note_del AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION menu_note_people();
CREATE CONSTRAINT TRIGGER users_menu_bump_ins_del AFTER INSERT OR DELETE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (menu_event_first())
  EXECUTE FUNCTION menu_bump_at_commit();
CREATE TRIGGER users_menu_note_upd AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION menu_note_people();
CREATE CONSTRAINT TRIGGER users_menu_bump AFTER UPDATE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (menu_event_first((OLD.name, OLD.email, OLD.status, OLD.role)
                         IS DISTINCT FROM (NEW.name, NEW.email, NEW.status, NEW.role)))
  EXECUTE FUNCTION menu_bump_at_commit();

CREATE TRIGGER organizations_menu_note_upd AFTER UPDATE ON organizations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION menu_note_organization();
CREATE CONSTRAINT TRIGGER organizations_menu_bump AFTER UPDATE ON organizations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (menu_event_first((OLD.name, OLD.feedback_url, OLD.consent_url, OLD.personal_intro,
                          OLD.team_intro, OLD.organization_intro)
                         IS DISTINCT FROM
                         (NEW.name, NEW.feedback_url, NEW.consent_url, NEW.personal_intro,
                          NEW.team_intro, NEW.organization_intro)))
  EXECUTE FUNCTION menu_bump_at_commit();

-- The menu statement learns to leave out the spaces the server already holds
-- (db/functions/menu.sql, version 4): its arguments change, so the old one goes first.
DROP FUNCTION signpost_menu(text, text);

-- The version digest of one person's menu: every scope they see, with its version (0 for a
-- scope never bumped), in scope order. It reads the person's memberships only, by index
-- (a small table would otherwise be scanned whole): its cost follows what the person sees,
-- not the size of the organization.
CREATE FUNCTION signpost_menu_scopes(p_organization_id text, p_user_id text, p_admin boolean)
RETURNS text LANGUAGE plpgsql STABLE
SET enable_seqscan = off
AS $$
BEGIN
  RETURN (
    SELECT string_agg(k.scope || '=' || coalesce(ms.version, 0), ' ' ORDER BY k.scope)
    FROM (
      SELECT 'p:' || p_user_id
      UNION ALL SELECT 'o:' || p_organization_id
      UNION ALL SELECT 'e:' || p_organization_id
      UNION ALL SELECT 'oa:' || p_organization_id WHERE p_admin
      UNION ALL SELECT 't:' || tm.team_id FROM team_memberships tm WHERE tm.user_id = p_user_id
      UNION ALL SELECT 'te:' || tm.team_id FROM team_memberships tm
        WHERE tm.user_id = p_user_id AND (tm.role = 'editor' OR p_admin)
      UNION ALL SELECT 's:' || sm.share_id FROM share_members sm WHERE sm.user_id = p_user_id
      UNION ALL SELECT 's:' || s.id FROM collections c
        JOIN collection_shares s ON s.collection_id = c.id
        WHERE c.owner_user_id = p_user_id
    ) k(scope)
    LEFT JOIN menu_scopes ms ON ms.scope = k.scope);
END $$;
