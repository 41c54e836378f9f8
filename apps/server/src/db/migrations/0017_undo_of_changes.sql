-- Undo of a change (decision 0076).
--
-- An edit of a link or a collection, a move, and a new order of a collection's items keep
-- the rows they change, whole, as they were (`to_jsonb`, as a deletion keeps what it
-- removes), in a snapshot of kind 'change'. Undoing it writes those rows' fields back. The
-- menu's triggers see an ordinary update, so every open portal follows. A deletion of several
-- items at once keeps each as its own deletion does, and a snapshot of kind 'batch' that names
-- them (`{"batch": [ids]}`), so that one undo brings them all back together.
ALTER TABLE undo_snapshots DROP CONSTRAINT undo_snapshots_kind_check;
ALTER TABLE undo_snapshots ADD CONSTRAINT undo_snapshots_kind_check
  CHECK (kind IN ('link', 'favorite', 'collection', 'share', 'membership', 'change', 'batch'));
