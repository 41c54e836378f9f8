-- A personal collection shared with whole teams (decision 0086).
--
-- `share_members` stays the one list of who sees a shared collection: the menu, search,
-- access checks, link health and the live stream read it and nothing else. A member is there
-- directly (`direct`: the owner, and people the owner added) and/or through a team the
-- collection is shared with. The rows through teams are kept by the triggers below, in the
-- transaction that changes a team's members or a share's teams, however it came (console,
-- SCIM, a sign-in's groups): who joins a team sees the collection at that commit, who leaves
-- it stops seeing it, and the scope triggers of share_members announce both.

ALTER TABLE share_members ADD COLUMN direct boolean NOT NULL DEFAULT true;

-- The teams a share is for.
CREATE TABLE share_teams (
  share_id text NOT NULL REFERENCES collection_shares (id) ON DELETE CASCADE,
  team_id text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  added_by text REFERENCES users (id) ON DELETE SET NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (share_id, team_id)
);
CREATE INDEX share_teams_team_idx ON share_teams (team_id);

-- People who left a share they saw through a team: the team does not bring them back. The
-- owner adding them by name does (the row goes).
CREATE TABLE share_opt_outs (
  share_id text NOT NULL REFERENCES collection_shares (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  left_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (share_id, user_id)
);
CREATE INDEX share_opt_outs_user_idx ON share_opt_outs (user_id);

-- Whether a person sees a share through one of its teams.
CREATE FUNCTION share_through_team(p_share_id text, p_user_id text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM share_teams st
                 JOIN team_memberships tm ON tm.team_id = st.team_id
                 WHERE st.share_id = p_share_id AND tm.user_id = p_user_id)
$$;

-- Members through teams for the pairs (share, person) given: added unless they opted out or
-- are members already.
CREATE FUNCTION share_members_add_through_teams(p_shares text[], p_users text[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO share_members (share_id, user_id, organization_id, direct)
  SELECT p.share_id, p.user_id, s.organization_id, false
  FROM unnest(p_shares, p_users) AS p(share_id, user_id)
  JOIN collection_shares s ON s.id = p.share_id
  WHERE NOT EXISTS (SELECT 1 FROM share_opt_outs o
                    WHERE o.share_id = p.share_id AND o.user_id = p.user_id)
  ORDER BY p.share_id, p.user_id
  ON CONFLICT (share_id, user_id) DO NOTHING
$$;

-- Members through teams of the pairs given who no longer have a team of the share: removed.
-- Whatever order cascades run in (a team deleted takes its memberships and its share rows),
-- the check reads what is left.
CREATE FUNCTION share_members_drop_through_teams(p_shares text[], p_users text[])
RETURNS void LANGUAGE sql AS $$
  DELETE FROM share_members m
  USING unnest(p_shares, p_users) AS p(share_id, user_id)
  WHERE m.share_id = p.share_id AND m.user_id = p.user_id AND NOT m.direct
    AND NOT share_through_team(m.share_id, m.user_id)
$$;

CREATE FUNCTION share_teams_follow_memberships() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pairs_share text[];
  pairs_user text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(st.share_id), array_agg(n.user_id) INTO pairs_share, pairs_user
    FROM new_rows n JOIN share_teams st ON st.team_id = n.team_id;
    IF pairs_share IS NOT NULL THEN
      PERFORM share_members_add_through_teams(pairs_share, pairs_user);
    END IF;
  ELSE
    -- Every non-direct membership of the people who left a team: their other teams decide.
    SELECT array_agg(m.share_id), array_agg(m.user_id) INTO pairs_share, pairs_user
    FROM share_members m
    WHERE m.user_id IN (SELECT DISTINCT user_id FROM old_rows) AND NOT m.direct;
    IF pairs_share IS NOT NULL THEN
      PERFORM share_members_drop_through_teams(pairs_share, pairs_user);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER team_memberships_shares_ins AFTER INSERT ON team_memberships
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION share_teams_follow_memberships();
CREATE TRIGGER team_memberships_shares_del AFTER DELETE ON team_memberships
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION share_teams_follow_memberships();

CREATE FUNCTION share_teams_follow_teams() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pairs_share text[];
  pairs_user text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.share_id), array_agg(tm.user_id) INTO pairs_share, pairs_user
    FROM new_rows n JOIN team_memberships tm ON tm.team_id = n.team_id;
    IF pairs_share IS NOT NULL THEN
      PERFORM share_members_add_through_teams(pairs_share, pairs_user);
    END IF;
  ELSE
    SELECT array_agg(m.share_id), array_agg(m.user_id) INTO pairs_share, pairs_user
    FROM share_members m
    WHERE m.share_id IN (SELECT DISTINCT share_id FROM old_rows) AND NOT m.direct;
    IF pairs_share IS NOT NULL THEN
      PERFORM share_members_drop_through_teams(pairs_share, pairs_user);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER share_teams_members_ins AFTER INSERT ON share_teams
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION share_teams_follow_teams();
CREATE TRIGGER share_teams_members_del AFTER DELETE ON share_teams
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION share_teams_follow_teams();

-- A share's teams are part of its menu entry (s:), and so is their name.
DO $$
BEGIN
  EXECUTE 'CREATE TRIGGER share_teams_menu_note_ins AFTER INSERT ON share_teams '
          'REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT '
          'EXECUTE FUNCTION menu_note_rows(''s:'', ''share_id'')';
  EXECUTE 'CREATE TRIGGER share_teams_menu_note_del AFTER DELETE ON share_teams '
          'REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT '
          'EXECUTE FUNCTION menu_note_rows(''s:'', ''share_id'')';
  EXECUTE 'CREATE CONSTRAINT TRIGGER share_teams_menu_bump AFTER INSERT OR DELETE ON share_teams '
          'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (menu_event_first()) '
          'EXECUTE FUNCTION menu_bump_at_commit()';
END $$;

CREATE FUNCTION menu_note_shared_team_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM menu_note(
    ARRAY(SELECT DISTINCT 's:' || st.share_id FROM share_teams st
          JOIN new_rows n ON n.id = st.team_id JOIN old_rows o ON o.id = n.id
          WHERE n.name IS DISTINCT FROM o.name),
    ARRAY(SELECT DISTINCT organization_id FROM new_rows));
  RETURN NULL;
END $$;
CREATE TRIGGER teams_menu_note_shares AFTER UPDATE ON teams
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION menu_note_shared_team_names();
