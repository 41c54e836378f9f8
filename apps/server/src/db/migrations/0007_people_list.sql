-- The console's people list (decision 0042).
--
-- A search first reads up to a window of people in name order and keeps the matches. That
-- window visited the table for every person to test the name and e-mail; with both in the
-- index it is an index-only scan, a fraction of the cost (the peers' index of 0003 does the
-- same for active people). It replaces the organization's name index, whose keys it has.
CREATE INDEX users_organization_name_cover_idx
  ON users (organization_id, lower(name), id) INCLUDE (name, email);
DROP INDEX users_organization_name_idx;
