-- Sign-in rules (decision 0048).
--
-- When the session's person last proved who they are: the sign-in itself, or a later
-- re-authentication (password, or a fresh single sign-on). Sensitive changes (the second
-- factor, access tokens, an e-mail address, a role) need it within the last few minutes.
-- Sessions that exist before this migration count from when they were opened.
ALTER TABLE sessions ADD COLUMN reauthenticated_at timestamptz DEFAULT now();
UPDATE sessions SET reauthenticated_at = created_at;
ALTER TABLE sessions ALTER COLUMN reauthenticated_at SET NOT NULL;

-- A single sign-on started to re-authenticate a session (not to open one): the callback
-- stamps this session instead of opening a new one.
ALTER TABLE sso_attempts ADD COLUMN session_id text REFERENCES sessions (id) ON DELETE CASCADE;

-- A single sign-on of a person with a second factor, waiting for Signpost's code: the
-- provider vouched for the person, but no session exists until the code is right. Only the
-- SHA-256 of the ticket (sent in the address fragment) and of the browser secret (an
-- HttpOnly cookie) are stored; the ticket works once, for a few minutes, in that browser.
CREATE TABLE sso_second_factor_tickets (
  id text PRIMARY KEY,
  ticket_hash text NOT NULL UNIQUE,
  browser_hash text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider_id text NOT NULL,
  -- For the provider's logout of the session it opens (session_sso).
  id_token text NOT NULL,
  -- Codes tried with this ticket; it stops working after a few wrong ones.
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX sso_second_factor_tickets_expires_idx ON sso_second_factor_tickets (expires_at);
