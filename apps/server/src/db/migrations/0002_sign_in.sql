-- Sign-in beyond e-mail and password: single sign-on identities and attempts, personal
-- access tokens, and the optional second factor (TOTP) with recovery codes.

-- A person as a single sign-on provider knows them: keyed on (issuer, subject), never on
-- e-mail alone. One person may have identities at several providers.
CREATE TABLE identities (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider_id text NOT NULL,
  issuer text NOT NULL,
  subject text NOT NULL,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (issuer, subject)
);
CREATE INDEX identities_user_idx ON identities (user_id);

-- One started single sign-on: state, nonce and PKCE verifier, bound to the browser that
-- started it (the SHA-256 of a random value in an HttpOnly cookie) and used at most once.
CREATE TABLE sso_attempts (
  id text PRIMARY KEY,
  provider_id text NOT NULL,
  state text NOT NULL UNIQUE,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  browser_hash text NOT NULL,
  return_to text NOT NULL DEFAULT '/',
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX sso_attempts_expires_idx ON sso_attempts (expires_at);

-- The single sign-on behind a session, for the provider's logout (id_token_hint).
CREATE TABLE session_sso (
  session_id text PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  provider_id text NOT NULL,
  id_token text NOT NULL
);

-- Personal access tokens: bearer tokens a person makes for scripts and for token sign-in.
CREATE TABLE access_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- SHA-256 of the token, hex; the token itself is shown once and never stored.
  token_hash text NOT NULL UNIQUE,
  -- The first characters of the token, so that a person can tell their tokens apart.
  token_hint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  expires_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX access_tokens_user_idx ON access_tokens (user_id);

-- The time-based one-time password secret of a person; enabled once a code confirmed it.
CREATE TABLE second_factors (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret text NOT NULL,
  enabled_at timestamptz,
  -- The 30-second step of the last accepted code: a code is never accepted twice.
  last_used_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE recovery_codes (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  UNIQUE (user_id, code_hash)
);
