-- Undo instead of regret (decision 0052).
--
-- A deletion in the portal keeps what it removed — the item, everything inside a
-- collection, and the rows that went with them by the foreign keys (other people's
-- favorites of a deleted link, a share and its members, suggestions, positions) — as a
-- snapshot the person who deleted it may restore, with the same ids, until it expires.
-- The rows are kept as `to_jsonb` of each table's row, so that the restore inserts exactly
-- what was there (`jsonb_populate_recordset`). The table is not part of any menu: it has no
-- menu-version trigger; the restore's inserts into the menu's tables bump it as any write.
CREATE TABLE undo_snapshots (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- Only this person may restore it.
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- What was deleted: a link, a favorite, a collection, a shared collection (by its owner),
  -- or the person's own membership of a share (leaving it).
  kind text NOT NULL CHECK (kind IN ('link', 'favorite', 'collection', 'share', 'membership')),
  target_id text NOT NULL,
  label text NOT NULL,
  -- Rows by table: {"collections": [...], "links": [...], "favorites": [...], ...}.
  rows jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- Set by the restore, which also empties `rows`: a second undo is told it was done.
  undone_at timestamptz
);
CREATE INDEX undo_snapshots_expires_idx ON undo_snapshots (expires_at);
CREATE INDEX undo_snapshots_user_idx ON undo_snapshots (user_id);
