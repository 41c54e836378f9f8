-- A broken finding marked wrong by the people who run the link's space (decision 0069,
-- "Broken links are mended from the list"): a site that refuses robots answers a check with
-- an error while people reach it. The dismissal is for one address: it holds while the row's
-- `url` is `dismissed_url`, so a changed address (which the triggers of 0015 write into
-- `url`) is checked and listed again without anything to reset.
ALTER TABLE link_checks
  ADD COLUMN dismissed_url text,
  ADD COLUMN dismissed_at timestamptz,
  ADD COLUMN dismissed_by text REFERENCES users (id) ON DELETE SET NULL;
