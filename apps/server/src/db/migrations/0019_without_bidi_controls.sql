-- Texts written before decision 0081 lose their bidirectional embeddings, overrides and
-- isolates (U+202A–U+202E, U+2066–U+2069), which every request now has taken out of its texts:
-- `invoice<U+202E>gnp.exe` was stored as typed and reached every program that read it as
-- "invoiceexe.png". Only rows that hold one change, so the menus, people lists and link
-- checks of everyone else are not touched. Names are trimmed afterwards, as a name of a
-- request is; multi-line texts keep their spaces and lines.
--
-- Not here: addresses (links, suggestions, the organization's footer), which `normalizeUrl`
-- has refused with any hidden character since decision 0002; the audit log, whose guard
-- refuses every UPDATE (0005): its old entries are cleaned where they are read
-- (`modules/audit/audit.service.ts`, `plainValue`).
CREATE FUNCTION signpost_without_bidi(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT
  AS $$ SELECT regexp_replace(value, '[\u202A-\u202E\u2066-\u2069]', '', 'g') $$;

CREATE FUNCTION signpost_has_bidi(value text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT
  AS $$ SELECT value ~ '[\u202A-\u202E\u2066-\u2069]' $$;

UPDATE organizations
   SET name = btrim(signpost_without_bidi(name)),
       personal_intro = signpost_without_bidi(personal_intro),
       team_intro = signpost_without_bidi(team_intro),
       organization_intro = signpost_without_bidi(organization_intro)
 WHERE signpost_has_bidi(name) OR signpost_has_bidi(personal_intro)
    OR signpost_has_bidi(team_intro) OR signpost_has_bidi(organization_intro);

UPDATE users SET name = btrim(signpost_without_bidi(name)) WHERE signpost_has_bidi(name);

-- An e-mail address is unique (whatever its case) across the installation: one that, cleaned,
-- would be another person's stays as it is (it was that address's look-alike), and is said.
DO $$
DECLARE
  person record;
BEGIN
  FOR person IN SELECT id, email FROM users WHERE signpost_has_bidi(email) ORDER BY id LOOP
    IF EXISTS (
      SELECT 1 FROM users
       WHERE lower(email) = lower(btrim(signpost_without_bidi(person.email)))
         AND id <> person.id
    ) THEN
      RAISE NOTICE 'the e-mail address of person % keeps its bidirectional controls: without them it is another person''s', person.id;
    ELSE
      UPDATE users SET email = btrim(signpost_without_bidi(email)) WHERE id = person.id;
    END IF;
  END LOOP;
END $$;

UPDATE identities SET email = btrim(signpost_without_bidi(email)) WHERE signpost_has_bidi(email);

-- Team names are unique in an organization, whatever their case: a name that, cleaned, is
-- another team's becomes "Name (2)" (or the next number free), so the look-alike shows.
DO $$
DECLARE
  team record;
  plain text;
  candidate text;
  n integer;
BEGIN
  FOR team IN SELECT id, organization_id, name FROM teams WHERE signpost_has_bidi(name) ORDER BY id LOOP
    plain := btrim(signpost_without_bidi(team.name));
    candidate := plain;
    n := 1;
    WHILE EXISTS (
      SELECT 1 FROM teams
       WHERE organization_id = team.organization_id
         AND lower(name) = lower(candidate)
         AND id <> team.id
    ) LOOP
      n := n + 1;
      candidate := plain || ' (' || n || ')';
    END LOOP;
    UPDATE teams SET name = candidate WHERE id = team.id;
  END LOOP;
END $$;

UPDATE collections
   SET name = btrim(signpost_without_bidi(name)),
       description = signpost_without_bidi(description)
 WHERE signpost_has_bidi(name) OR signpost_has_bidi(description);

UPDATE links
   SET name = btrim(signpost_without_bidi(name)),
       description = signpost_without_bidi(description),
       app_name = signpost_without_bidi(app_name)
 WHERE signpost_has_bidi(name) OR signpost_has_bidi(description) OR signpost_has_bidi(app_name);

UPDATE link_suggestions
   SET name = btrim(signpost_without_bidi(name)),
       description = signpost_without_bidi(description),
       reason = signpost_without_bidi(reason)
 WHERE signpost_has_bidi(name) OR signpost_has_bidi(description) OR signpost_has_bidi(reason);

UPDATE access_tokens SET name = btrim(signpost_without_bidi(name)) WHERE signpost_has_bidi(name);

-- What an undo would put back (decision 0052): the rows as `to_jsonb` wrote them, whose text
-- holds the characters themselves (jsonb escapes only controls below U+0020).
UPDATE undo_snapshots
   SET label = signpost_without_bidi(label),
       rows = signpost_without_bidi(rows::text)::jsonb
 WHERE signpost_has_bidi(label) OR signpost_has_bidi(rows::text);

DROP FUNCTION signpost_has_bidi(text);
DROP FUNCTION signpost_without_bidi(text);
