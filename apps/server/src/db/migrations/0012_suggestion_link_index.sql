-- Deleting a link sets `link_suggestions.link_id` to null where a suggestion was accepted
-- as that link (the foreign key's ON DELETE SET NULL), and its undo snapshot reads those
-- suggestions first (decision 0052). Without an index on the column both read every
-- suggestion of the installation, once per link deleted; with it, only the link's own.
-- Partial: most suggestions are open or declined and name no link.
CREATE INDEX link_suggestions_link_idx ON link_suggestions (link_id) WHERE link_id IS NOT NULL;
