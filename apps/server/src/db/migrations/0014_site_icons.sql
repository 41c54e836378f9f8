-- Site icons found, checked and kept by Signpost itself
-- (docs/decisions/0068-site-icons-found-checked-and-stored.md).
--
-- The portal used to draw each tile from an address on the link's own site, so every visit
-- told some thirty sites who was looking. Now the server finds a link's icon through the
-- guarded fetcher (decision 0067), checks that it is an image, scales it, and keeps it here;
-- a link's `icon` is then the path the server serves it at, and nothing else.

-- An icon's images, one per size drawn. The id is a digest of the organization and the
-- images (icons.ts): the links of one site share a row, and an address never changes what it
-- shows, so browsers keep it for a year. With the organization in the digest, nobody can
-- ask whether another organization links to a site by guessing its icon's address.
CREATE TABLE icons (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX icons_organization_idx ON icons (organization_id);

CREATE TABLE icon_images (
  icon_id text NOT NULL REFERENCES icons (id) ON DELETE CASCADE,
  size integer NOT NULL CHECK (size BETWEEN 16 AND 512),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/webp')),
  body bytea NOT NULL CHECK (octet_length(body) BETWEEN 1 AND 262144),
  PRIMARY KEY (icon_id, size)
);

-- Where each link's icon stands: found on the site, uploaded by someone who may change the
-- link, none found (the letter badge stays), or not looked for yet. `due_at` is when it is
-- looked for (again): now for a new or changed address, later to refresh, never for an
-- uploaded icon or a mailto: link. The workers take due rows in `due_at` order.
CREATE TABLE link_icons (
  link_id text PRIMARY KEY REFERENCES links (id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- The address the state below is for.
  url text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'found', 'none', 'uploaded')),
  icon_id text REFERENCES icons (id) ON DELETE SET NULL,
  -- Where the icon was found (an address), or why none was (for administrators and logs).
  found_at text,
  failure text,
  tries integer NOT NULL DEFAULT 0,
  checked_at timestamptz,
  due_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX link_icons_due_idx ON link_icons (due_at);
CREATE INDEX link_icons_icon_idx ON link_icons (icon_id) WHERE icon_id IS NOT NULL;

-- A new link, or a link whose address changed, is due at once (an uploaded icon stays: it
-- was chosen for the link, not for its address). Only http and https are looked up.
CREATE FUNCTION link_icons_due() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  fetchable boolean := NEW.url ~* '^https?://';
BEGIN
  INSERT INTO link_icons (link_id, organization_id, url, state, due_at)
  VALUES (NEW.id, NEW.organization_id, NEW.url,
          CASE WHEN fetchable THEN 'pending' ELSE 'none' END,
          CASE WHEN fetchable THEN now() ELSE 'infinity'::timestamptz END)
  ON CONFLICT (link_id) DO UPDATE
    SET url = EXCLUDED.url,
        state = CASE WHEN link_icons.state = 'uploaded' THEN 'uploaded' ELSE EXCLUDED.state END,
        due_at = CASE WHEN link_icons.state = 'uploaded' THEN 'infinity'::timestamptz
                      ELSE EXCLUDED.due_at END,
        tries = 0,
        failure = NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER links_icon_new AFTER INSERT ON links
  FOR EACH ROW EXECUTE FUNCTION link_icons_due();
CREATE TRIGGER links_icon_moved AFTER UPDATE OF url ON links
  FOR EACH ROW WHEN (OLD.url IS DISTINCT FROM NEW.url) EXECUTE FUNCTION link_icons_due();

-- A changed address drops the icon of the old site at once (unless it was uploaded): the
-- letter badge shows until the new site's icon is found.
CREATE FUNCTION links_icon_of_address() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.icon IS NOT DISTINCT FROM OLD.icon
     AND NOT EXISTS (SELECT 1 FROM link_icons WHERE link_id = NEW.id AND state = 'uploaded') THEN
    NEW.icon := NULL;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER links_icon_address BEFORE UPDATE OF url ON links
  FOR EACH ROW WHEN (OLD.url IS DISTINCT FROM NEW.url) EXECUTE FUNCTION links_icon_of_address();

-- Icons from third-party addresses are no longer drawn: every link looks for its own.
UPDATE links SET icon = NULL WHERE icon IS NOT NULL;
INSERT INTO link_icons (link_id, organization_id, url, state, due_at)
SELECT id, organization_id, url,
       CASE WHEN url ~* '^https?://' THEN 'pending' ELSE 'none' END,
       CASE WHEN url ~* '^https?://' THEN now() ELSE 'infinity'::timestamptz END
FROM links;

-- And none can come back: a link's icon is an icon this server keeps.
ALTER TABLE links ADD CONSTRAINT links_icon_kept
  CHECK (icon IS NULL OR icon ~ '^/api/icons/[A-Za-z0-9_-]{16,64}$');
