-- The people directory (decisions 0046 and 0072) names each person's teams from the team
-- names it read last, and migration 0008 noted only a team renamed or deleted. A team made
-- after that read, then filled, was unknown to every server's directory: its members' rows
-- counted it ("and 1 more") without naming it until the directory was built again. A new
-- team now also leaves one note for its organization (user_id null), which tells every
-- directory to read the team names again; its memberships note each member as before.
CREATE FUNCTION note_team_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO people_changes (organization_id, user_id)
    SELECT DISTINCT organization_id, NULL::text FROM new_rows;
  RETURN NULL;
END $$;

CREATE TRIGGER teams_people_ins AFTER INSERT ON teams REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_team_added();
