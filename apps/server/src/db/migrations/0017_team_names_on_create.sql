-- The people directory (decisions 0046 and 0072) reads the organization's team names again
-- when a note without a person says they changed (0008_people_changes.sql): a team renamed
-- or deleted. A team created is such a change too: without a note, a directory built before
-- the team was made never learns its name, and the console's people list shows its members
-- as in "2 more" teams it cannot name.
CREATE FUNCTION note_team_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO people_changes (organization_id, user_id)
    SELECT DISTINCT organization_id, NULL::text FROM new_rows;
  RETURN NULL;
END $$;

CREATE TRIGGER teams_people_ins AFTER INSERT ON teams REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_team_created();
