-- Link checks (docs/decisions/0069-link-health.md).
--
-- Links rot and nobody notices until someone clicks. The server now asks every link's
-- address on a schedule, through the guarded fetcher (decision 0067), and keeps here what
-- the last answers said, so that the people who can fix a link see that it needs them.

-- Where each link's address stands. One row per link, kept by the triggers below, as
-- link_icons is (migration 0014): a round takes due rows in `due_at` order under a lease.
--
--   fine     the site answered (sign-in pages count: intranet and single sign-on apps
--            answer 401/403 to a stranger, and they are not broken)
--   moved    the address redirects for good (301/308) to one that answers: `moved_to` is
--            what to offer as the new address
--   broken   two checks in a row failed: one timeout or one bad minute of a site is not
--            enough to tell people their link is broken
--   unknown  never checked yet, or not checkable: not http(s), or an address the server
--            must not reach (intranet links are normal, and are never called broken)
CREATE TABLE link_checks (
  link_id text PRIMARY KEY REFERENCES links (id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- The address the state below is for: a round writes its answer back only while the
  -- link still has it.
  url text NOT NULL,
  state text NOT NULL DEFAULT 'unknown' CHECK (state IN ('fine', 'moved', 'broken', 'unknown')),
  -- Failed checks in a row; the second makes the link broken.
  failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
  -- What the last conclusive check saw, for the people who fix the link and for logs: the
  -- final HTTP status, and for a failure its kind (http, dns, timeout, …) and a message.
  status integer,
  failure_kind text,
  failure text,
  moved_to text,
  checked_at timestamptz,
  -- Since when the link is in its state: "broken for a month" is read from here.
  state_changed_at timestamptz NOT NULL DEFAULT now(),
  -- Rounds that took the row since its last conclusive check (a lease that ran out, a
  -- site that keeps asking us to slow down): the wait grows with it.
  tries integer NOT NULL DEFAULT 0,
  due_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((state = 'moved') = (moved_to IS NOT NULL))
);
CREATE INDEX link_checks_due_idx ON link_checks (due_at);
-- The lists of links that need someone: an organization's broken and moved links, oldest
-- first. Most links are fine; the index holds only the others.
CREATE INDEX link_checks_attention_idx ON link_checks (organization_id, state, state_changed_at)
  WHERE state IN ('broken', 'moved');

-- A new link, or a link whose address changed, is checked at once and knows nothing yet:
-- what the old address answered says nothing of the new one (accepting a "moved" offer is
-- such a change, and its check then finds the link fine). Only http and https are checked;
-- mailto: and the rest are never due and stay unknown.
CREATE FUNCTION link_checks_due() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  checkable boolean := NEW.url ~* '^https?://';
BEGIN
  INSERT INTO link_checks (link_id, organization_id, url, due_at)
  VALUES (NEW.id, NEW.organization_id, NEW.url,
          CASE WHEN checkable THEN now() ELSE 'infinity'::timestamptz END)
  ON CONFLICT (link_id) DO UPDATE
    SET url = EXCLUDED.url,
        state = 'unknown',
        failures = 0,
        status = NULL,
        failure_kind = NULL,
        failure = NULL,
        moved_to = NULL,
        checked_at = NULL,
        state_changed_at = now(),
        tries = 0,
        due_at = EXCLUDED.due_at;
  RETURN NULL;
END $$;
CREATE TRIGGER links_check_new AFTER INSERT ON links
  FOR EACH ROW EXECUTE FUNCTION link_checks_due();
CREATE TRIGGER links_check_moved AFTER UPDATE OF url ON links
  FOR EACH ROW WHEN (OLD.url IS DISTINCT FROM NEW.url) EXECUTE FUNCTION link_checks_due();

-- The links there already are checked from the first round on; the rounds pace each host,
-- so a large organization's first sweep takes longer rather than hammering its sites.
INSERT INTO link_checks (link_id, organization_id, url, due_at)
SELECT id, organization_id, url,
       CASE WHEN url ~* '^https?://' THEN now() ELSE 'infinity'::timestamptz END
FROM links;
