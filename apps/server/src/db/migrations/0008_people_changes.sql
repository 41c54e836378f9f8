-- The people directory (decision 0046): each server keeps an organization's people list in
-- memory while the console uses it, and asks the database on every call what changed since
-- it last looked. The database notes every change to what the list shows here, with the
-- transaction that made it, so that nothing committed is ever missed: a reader that saw the
-- snapshot horizon H (`pg_snapshot_xmin`) has seen every transaction below H, and reads the
-- changes of transactions from H on, again, the next time.
CREATE TABLE people_changes (
  organization_id text NOT NULL,
  -- The person whose row changed; null when the organization's team names changed.
  user_id text,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  -- When the change was written (not when its transaction began): old notes are deleted.
  changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX people_changes_organization_xid_idx ON people_changes (organization_id, xid);
CREATE INDEX people_changes_changed_at_idx ON people_changes (changed_at);

-- People: added, deleted, or changed in what the list shows. Inserts and deletes name their
-- transition table `changed_rows`, so that one function serves both.
CREATE FUNCTION note_people_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO people_changes (organization_id, user_id)
    SELECT DISTINCT organization_id, id FROM changed_rows;
  RETURN NULL;
END $$;

CREATE FUNCTION note_people_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO people_changes (organization_id, user_id)
    SELECT DISTINCT n.organization_id, n.id
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.name, n.email, n.role, n.status, n.password_hash, n.last_sign_in_at,
           n.created_at, n.organization_id)
          IS DISTINCT FROM
          (o.name, o.email, o.role, o.status, o.password_hash, o.last_sign_in_at,
           o.created_at, o.organization_id);
  RETURN NULL;
END $$;

CREATE TRIGGER users_people_ins AFTER INSERT ON users REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_people_rows();
CREATE TRIGGER users_people_del AFTER DELETE ON users REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_people_rows();
CREATE TRIGGER users_people_upd AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_people_updated();

-- What the list shows of a person from other tables: teams, single sign-on, second factor.
-- A person deleted with these rows is noted by the trigger on users.
CREATE FUNCTION note_people_of_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO people_changes (organization_id, user_id)
    SELECT u.organization_id, u.id FROM users u
    WHERE u.id IN (SELECT user_id FROM changed_rows);
  RETURN NULL;
END $$;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['team_memberships', 'identities', 'second_factors'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION note_people_of_rows()',
                   t || '_people_ins', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION note_people_of_rows()',
                   t || '_people_del', t);
  END LOOP;
END $$;

-- A second factor turned on or off is an update of its row.
CREATE TRIGGER second_factors_people_upd AFTER UPDATE ON second_factors
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_people_of_rows();

-- Teams renamed or deleted: the list names its people's teams. One note for the organization
-- (user_id null) says "read the team names again"; deleting a team also deletes its
-- memberships, which note each member.
CREATE FUNCTION note_team_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO people_changes (organization_id, user_id)
      SELECT DISTINCT n.organization_id, NULL::text
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.name IS DISTINCT FROM o.name;
  ELSE
    INSERT INTO people_changes (organization_id, user_id)
      SELECT DISTINCT organization_id, NULL::text FROM old_rows;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER teams_people_upd AFTER UPDATE ON teams
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_team_names();
CREATE TRIGGER teams_people_del AFTER DELETE ON teams REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_team_names();
