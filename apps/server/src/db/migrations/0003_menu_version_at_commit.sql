-- Menu versions bumped once per transaction at commit, and indexes for the peer search
-- (docs/decisions/0030-menu-version-at-commit.md, docs/performance.md).

-- 1. Menu versions.
--
-- The statement triggers of 0001 bumped organizations.menu_version inside the statement
-- that changed a row, so the organization's row stayed locked from that statement until
-- the transaction ended: every writer of an organization queued there for the rest of
-- the other's transaction, round trips to the application included. Now the change only
-- queues one deferred trigger per organization and transaction, and that trigger bumps the
-- version while the transaction commits: the row is locked for the commit alone. The
-- version still changes in commit order (the lock orders the bumps, and a bump becomes
-- visible with the changes it stands for), once for each transaction that changed a menu.

-- True the first time a transaction reports a change of the organization's menus, false
-- afterwards. The list lives in a transaction-local setting, so it ends with the
-- transaction, and a rolled back savepoint takes back what it added along with the
-- trigger events it queued.
CREATE FUNCTION menu_change_first(org text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  seen text := coalesce(current_setting('signpost.menu_changed', true), '');
BEGIN
  IF org IS NULL OR strpos(seen, ' ' || org || ' ') > 0 THEN
    RETURN false;
  END IF;
  PERFORM set_config('signpost.menu_changed', seen || ' ' || org || ' ', true);
  RETURN true;
END $$;

-- Runs at commit, once per organization and transaction (the WHEN clauses below queue no
-- more). An update that moves a row to another organization bumps both.
CREATE FUNCTION bump_menu_version_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE organizations SET menu_version = menu_version + 1 WHERE id = OLD.organization_id;
  ELSIF TG_OP = 'UPDATE' AND OLD.organization_id IS DISTINCT FROM NEW.organization_id THEN
    UPDATE organizations SET menu_version = menu_version + 1
    WHERE id IN (OLD.organization_id, NEW.organization_id);
  ELSE
    UPDATE organizations SET menu_version = menu_version + 1 WHERE id = NEW.organization_id;
  END IF;
  RETURN NULL;
END $$;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['users', 'teams', 'team_memberships', 'collections', 'links',
                           'favorites', 'collection_shares', 'share_members']
  LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_menu_ins', t);
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_menu_upd', t);
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_menu_del', t);
    -- The WHEN clause of a constraint trigger is evaluated when the row changes, not at
    -- commit: only the first change of an organization in a transaction queues an event.
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT ON %I '
                   'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW '
                   'WHEN (menu_change_first(NEW.organization_id)) '
                   'EXECUTE FUNCTION bump_menu_version_at_commit()', t || '_menu_ins', t);
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER UPDATE ON %I '
                   'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW '
                   'WHEN (menu_change_first(NEW.organization_id) '
                   '      OR (OLD.organization_id IS DISTINCT FROM NEW.organization_id '
                   '          AND menu_change_first(OLD.organization_id))) '
                   'EXECUTE FUNCTION bump_menu_version_at_commit()', t || '_menu_upd', t);
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER DELETE ON %I '
                   'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW '
                   'WHEN (menu_change_first(OLD.organization_id)) '
                   'EXECUTE FUNCTION bump_menu_version_at_commit()', t || '_menu_del', t);
  END LOOP;
END $$;

DROP FUNCTION bump_menu_version_new();
DROP FUNCTION bump_menu_version_old();

-- 2. Peer search (modules/peers/peers.repository.ts).
--
-- Active people of an organization in name order, with what the search returns, so that
-- reading them in that order needs no visit to the table (an index-only scan).
CREATE INDEX users_active_name_idx ON users (organization_id, lower(name), id)
  INCLUDE (name, email) WHERE status = 'active';

-- Every substring of one and of two characters of lower(name) and lower(email): a query
-- that short has no trigram for the trigram indexes, and this array index answers it
-- (`peer_search_grams(name, email) @> ARRAY[lower(query)]`). The search still checks
-- its LIKE on every row the index gives.
CREATE FUNCTION peer_search_grams(name text, email text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  grams text[] := '{}';
  s text;
BEGIN
  FOREACH s IN ARRAY ARRAY[lower(name), lower(email)] LOOP
    grams := grams || string_to_array(s, NULL);
    FOR i IN 1 .. char_length(s) - 1 LOOP
      grams := grams || substr(s, i, 2);
    END LOOP;
  END LOOP;
  RETURN grams;
END $$;
CREATE INDEX users_search_grams_idx ON users USING gin (peer_search_grams(name, email));
