-- The console's people list (decision 0042).
--
-- The list's search matches name or e-mail, case-insensitively, in name order. Lowering
-- name and e-mail on every row it read was most of its cost, so each person keeps what the
-- search reads, lowered, and the database keeps it up to date:
-- - `sort_name`, the lowered name: the list's order (the same as `lower(name)`);
-- - `search_text`, the lowered name, a line break and the lowered e-mail (a search never holds
--   a line break, so it cannot match across the two).
ALTER TABLE users
  ADD COLUMN sort_name text NOT NULL GENERATED ALWAYS AS (lower(name)) STORED,
  ADD COLUMN search_text text NOT NULL
    GENERATED ALWAYS AS (lower(name) || E'\n' || lower(email)) STORED;

-- A search first reads people in name order and keeps the matches: an index-only scan of
-- this index.
CREATE INDEX users_organization_sort_name_idx
  ON users (organization_id, sort_name, id) INCLUDE (search_text);

-- Only when that reading comes up short, every match is collected through this index (three
-- characters or more; shorter searches use the substrings index of 0003).
CREATE INDEX users_search_text_trgm_idx ON users USING gin (search_text gin_trgm_ops);
