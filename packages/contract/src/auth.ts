import { Type, type Static } from 'typebox';
import { LIMITS } from './common.ts';
import { asTyped, visibleText } from './text.ts';

export const LOGIN_METHOD_TYPES = ['email-password', 'sso-oidc-id-token'] as const;

/** A way to sign in, as listed by `GET /api/auth/methods`. */
export const LoginMethod = Type.Object({
  type: Type.Union([Type.Literal('email-password'), Type.Literal('sso-oidc-id-token')]),
  name: Type.String({ description: 'Shown on the sign-in button' }),
  loginUrl: Type.Optional(
    Type.String({
      description:
        'For single sign-on: where the button sends the browser, on the public address (PUBLIC_URL) that the provider returns to',
    }),
  ),
});
export type LoginMethod = Static<typeof LoginMethod>;

export const LoginMethodsResponse = Type.Array(LoginMethod);
export type LoginMethodsResponse = Static<typeof LoginMethodsResponse>;

/**
 * `POST /api/auth/sessions/`: sign in with e-mail and password. When the account has a
 * second factor, the password alone answers 401 `SECOND_FACTOR_REQUIRED`; the same body
 * again with `totp` (or `recoveryCode`) opens the session.
 */
export const CreateSessionBody = Type.Object(
  {
    type: Type.Literal('email-password'),
    email: Type.String({ maxLength: LIMITS.email, description: 'The e-mail address, any case' }),
    password: Type.String({
      maxLength: LIMITS.password.max,
      description: 'As typed',
      ...asTyped,
    }),
    totp: Type.Optional(
      Type.String({
        maxLength: 16,
        description: 'The 6-digit code of the authenticator app (spaces are ignored)',
      }),
    ),
    recoveryCode: Type.Optional(
      Type.String({
        maxLength: 32,
        description: 'One of the recovery codes given when the second factor was enabled',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateSessionBody = Static<typeof CreateSessionBody>;

export const SessionResponse = Type.Object({
  token: Type.String({ description: 'The bearer token; shown once, stored only as a hash' }),
});
export type SessionResponse = Static<typeof SessionResponse>;

/** The signed-in person, returned by `GET /api/auth/sessions/current`. */
export const CurrentSessionResponse = Type.Object({
  user: Type.Object({
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    role: Type.Union([Type.Literal('member'), Type.Literal('admin')]),
  }),
  organization: Type.Object({ id: Type.String(), name: Type.String() }),
  session: Type.Object({
    kind: Type.Optional(
      Type.Union([Type.Literal('session'), Type.Literal('access-token')], {
        description: 'A sign-in session, or a personal access token used as the bearer',
      }),
    ),
    expiresAt: Type.Union([Type.String(), Type.Null()], {
      description: 'ISO time of absolute expiry; null for an access token without expiry',
    }),
  }),
});
export type CurrentSessionResponse = Static<typeof CurrentSessionResponse>;

// ---------------------------------------------------------------------------------------
// Single sign-on (OpenID Connect)

export {
  SESSION_FRAGMENT,
  SESSION_HANDOVER_COOKIE,
  SESSION_HANDOVER_PARAM,
  SESSION_HANDOVER_SECONDS,
  SESSION_HANDOVER_SECURE_COOKIE,
  SSO_ERROR_CODES,
  SSO_ERROR_FRAGMENT,
  SSO_SECOND_FACTOR_FRAGMENT,
  REAUTHENTICATED_FRAGMENT,
  type SsoErrorCode,
} from './markers.ts';

const TotpCode = Type.String({
  maxLength: 16,
  description: 'The 6-digit code of the authenticator app (spaces are ignored)',
});
const RecoveryCode = Type.String({
  maxLength: 32,
  description: 'One of the recovery codes given when the second factor was enabled',
});

/**
 * `POST /api/auth/sso/second-factor`: finishes a single sign-on of a person with a second
 * factor. `ticket` is the one of `#sso-second-factor?ticket=…`; the browser that received it
 * also sends its cookie. Exactly one of `totp` and `recoveryCode`.
 */
export const SsoSecondFactorBody = Type.Object(
  {
    ticket: Type.String({ minLength: 1, maxLength: 128 }),
    totp: Type.Optional(TotpCode),
    recoveryCode: Type.Optional(RecoveryCode),
  },
  { additionalProperties: false },
);
export type SsoSecondFactorBody = Static<typeof SsoSecondFactorBody>;

// ---------------------------------------------------------------------------------------
// Re-authentication before sensitive changes (decision 0048)

/** How long a sign-in or re-authentication counts as recent, in minutes. */
export const REAUTHENTICATION_MINUTES = 5;

/** `GET /api/auth/reauthenticate`: how this person can prove who they are again. */
export const ReauthenticationMethodsResponse = Type.Object({
  password: Type.Boolean({ description: 'The person has a password here' }),
  secondFactor: Type.Boolean({ description: 'A password re-authentication also needs a code' }),
  providers: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    { description: 'Single sign-on providers the person signs in with' },
  ),
  recent: Type.Boolean({ description: 'The session is recently authenticated right now' }),
  windowMinutes: Type.Integer({ description: 'How long a re-authentication counts' }),
});
export type ReauthenticationMethodsResponse = Static<typeof ReauthenticationMethodsResponse>;

/**
 * `POST /api/auth/reauthenticate`: the password (and, with a second factor on, a code) of
 * the signed-in person; 204 stamps the session. A wrong password is 400, not 401.
 */
export const ReauthenticateBody = Type.Object(
  {
    password: Type.String({
      maxLength: LIMITS.password.max,
      description: 'As typed',
      ...asTyped,
    }),
    totp: Type.Optional(TotpCode),
    recoveryCode: Type.Optional(RecoveryCode),
  },
  { additionalProperties: false },
);
export type ReauthenticateBody = Static<typeof ReauthenticateBody>;

/** `POST /api/auth/reauthenticate/sso`: start a fresh single sign-on for this session. */
export const ReauthenticateSsoBody = Type.Object(
  {
    provider: Type.String({ maxLength: 40, description: 'The provider id' }),
    returnTo: Type.Optional(
      Type.String({ maxLength: 512, description: 'A path of this site to come back to' }),
    ),
  },
  { additionalProperties: false },
);
export type ReauthenticateSsoBody = Static<typeof ReauthenticateSsoBody>;

export const ReauthenticateSsoResponse = Type.Object({
  location: Type.String({ description: "The provider's address: send the browser there" }),
});
export type ReauthenticateSsoResponse = Static<typeof ReauthenticateSsoResponse>;

/** `GET /api/auth/sso/:provider/start`: where to come back to after signing in. */
export const SsoStartQuery = Type.Object(
  {
    returnTo: Type.Optional(
      Type.String({
        maxLength: 512,
        description: 'A path of this site; anything else (another origin) becomes /',
      }),
    ),
    moved: Type.Optional(
      Type.Literal('1', {
        description:
          'Set by the server when it sent a start from another address to the public one: such a start is never sent again (no loop behind a proxy that rewrites Host)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SsoStartQuery = Static<typeof SsoStartQuery>;

/** `POST /api/auth/logout`: ends the session; `logoutUrl` also ends the provider's. */
export const LogoutResponse = Type.Object({
  logoutUrl: Type.Union([Type.String(), Type.Null()], {
    description:
      'Where to send the browser to sign out of the single sign-on provider too; null when there is nothing more to do',
  }),
});
export type LogoutResponse = Static<typeof LogoutResponse>;

// ---------------------------------------------------------------------------------------
// Where you're signed in

export const SignInSession = Type.Object({
  id: Type.String(),
  current: Type.Boolean({ description: 'The session of this request' }),
  browser: Type.String({ description: 'e.g. Firefox; "Unknown browser" when not told' }),
  device: Type.String({ description: 'e.g. macOS, Android, iPhone; "Unknown device"' }),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  method: Type.Union([Type.Literal('password'), Type.Literal('sso')], {
    description: 'How the session was opened',
  }),
  createdAt: Type.String({ description: 'ISO time of sign-in' }),
  lastActiveAt: Type.String({ description: 'ISO time of the last request (to the minute)' }),
  expiresAt: Type.String({ description: 'ISO time of absolute expiry' }),
});
export type SignInSession = Static<typeof SignInSession>;

export const SignInSessionsResponse = Type.Object({
  items: Type.Array(SignInSession, { description: 'Live sessions, most recently active first' }),
});
export type SignInSessionsResponse = Static<typeof SignInSessionsResponse>;

// ---------------------------------------------------------------------------------------
// Personal access tokens

export const ACCESS_TOKEN_PREFIX = 'spat_';
export const ACCESS_TOKEN_LIMITS = { name: 100, maxExpiresInDays: 3650, perPerson: 50 } as const;

export const AccessToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  hint: Type.String({ description: 'The first characters of the token, e.g. spat_Ab12' }),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.Union([Type.String(), Type.Null()], { description: 'null: never expires' }),
});
export type AccessToken = Static<typeof AccessToken>;

export const AccessTokensResponse = Type.Object({
  items: Type.Array(AccessToken, { description: 'Live tokens, newest first; never the token' }),
});
export type AccessTokensResponse = Static<typeof AccessTokensResponse>;

export const CreateAccessTokenBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: ACCESS_TOKEN_LIMITS.name,
      description: 'What the token is for',
      ...visibleText,
    }),
    expiresInDays: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: ACCESS_TOKEN_LIMITS.maxExpiresInDays,
        description: 'Days until the token stops working; absent: never',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateAccessTokenBody = Static<typeof CreateAccessTokenBody>;

export const CreatedAccessTokenResponse = Type.Object({
  token: Type.String({ description: 'The token itself: shown this once, stored only as a hash' }),
  accessToken: AccessToken,
});
export type CreatedAccessTokenResponse = Static<typeof CreatedAccessTokenResponse>;

// ---------------------------------------------------------------------------------------
// Second factor (TOTP, RFC 6238: SHA-1, 6 digits, 30 seconds)

export const SecondFactorStatus = Type.Object({
  available: Type.Boolean({
    description: 'False for accounts without a password (they sign in by single sign-on)',
  }),
  enabled: Type.Boolean(),
  recoveryCodesLeft: Type.Integer(),
});
export type SecondFactorStatus = Static<typeof SecondFactorStatus>;

export const SecondFactorSetupResponse = Type.Object({
  secret: Type.String({ description: 'Base32, for typing into an authenticator app' }),
  otpauthUrl: Type.String({ description: 'otpauth://totp/… for a QR code' }),
});
export type SecondFactorSetupResponse = Static<typeof SecondFactorSetupResponse>;

export const EnableSecondFactorBody = Type.Object(
  { code: Type.String({ maxLength: 16, description: 'A current code of the new secret' }) },
  { additionalProperties: false },
);
export type EnableSecondFactorBody = Static<typeof EnableSecondFactorBody>;

export const RecoveryCodesResponse = Type.Object({
  recoveryCodes: Type.Array(Type.String(), {
    description: 'Ten single-use codes, shown this once, stored only as hashes',
  }),
});
export type RecoveryCodesResponse = Static<typeof RecoveryCodesResponse>;

export const DisableSecondFactorBody = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 16, description: 'A current code' })),
    password: Type.Optional(
      Type.String({ maxLength: LIMITS.password.max, description: 'Or the password', ...asTyped }),
    ),
  },
  { additionalProperties: false },
);
export type DisableSecondFactorBody = Static<typeof DisableSecondFactorBody>;

/** `POST /api/auth/password`: change one's password (needs a sign-in session). */
export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Type.String({
      maxLength: LIMITS.password.max,
      description: 'As typed',
      ...asTyped,
    }),
    newPassword: Type.String({
      minLength: LIMITS.password.min,
      maxLength: LIMITS.password.max,
      description: '8 to 128 characters, taken exactly as typed',
      ...asTyped,
    }),
    signOutOtherSessions: Type.Optional(
      Type.Boolean({ description: 'Also end every other session of the person' }),
    ),
    revokeAccessTokens: Type.Optional(
      Type.Boolean({
        description:
          'Also revoke every personal access token of the person. When left out, it follows ' +
          '`signOutOtherSessions`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;
