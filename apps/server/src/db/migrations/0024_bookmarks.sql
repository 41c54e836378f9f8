-- Bookmarks in and out (decision 0087).
--
-- A link keeps the short name its file gave it (Firefox's keywords, SHORTCUTURL), as data for
-- go links; exports write it back.
ALTER TABLE links ADD COLUMN keyword text CHECK (char_length(keyword) <= 100);

-- An import is undone by taking away what it made (kind 'import': the ids it made).
ALTER TABLE undo_snapshots DROP CONSTRAINT undo_snapshots_kind_check;
ALTER TABLE undo_snapshots ADD CONSTRAINT undo_snapshots_kind_check
  CHECK (kind IN ('link', 'favorite', 'collection', 'share', 'membership', 'change', 'batch',
                  'import'));
