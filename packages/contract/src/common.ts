import { Type, type Static } from 'typebox';
import { multiline, visibleText } from './text.ts';

/** Generated ids: 21 characters from letters, digits, `-` and `_` (spec §9). */
export const ID_PATTERN = '^[A-Za-z0-9_-]{21}$';

/** Limits of every stored text field. */
export const LIMITS = {
  name: 200,
  description: 2000,
  url: 2048,
  email: 320,
  password: { min: 8, max: 128 },
  peersPage: { default: 10, max: 100 },
  peerQuery: 200,
  membersPerCall: 100,
  /** Teams one call shares a collection with (decision 0086). */
  teamsPerCall: 50,
  orderItems: 1000,
} as const;

/** An id as the server generates it. */
export const Id = Type.String({ pattern: ID_PATTERN, description: 'A 21-character generated id' });

/** Params of a route with one `{id}`. */
export const IdParams = Type.Object({ id: Id }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

/** A hex colour such as `#3b82f6`, or null for the default. */
export const Color = Type.Union([Type.String({ pattern: '^#[0-9a-fA-F]{6}$' }), Type.Null()], {
  description: 'A colour as #rrggbb, or null for the default',
});

export const Name = Type.String({
  minLength: 1,
  maxLength: LIMITS.name,
  description: 'Shown as the title; at least one visible character',
  ...visibleText,
});
export const Description = Type.String({
  maxLength: LIMITS.description,
  description: 'Free text, shown under the name; may span lines',
  ...multiline,
});
export const Url = Type.String({
  minLength: 1,
  maxLength: LIMITS.url,
  description: 'An http:, https: or mailto: address; an address without a scheme gets https://',
});

/** The body of a 204 answer. */
export const NoContent = Type.Null({ description: 'No content' });
/** The body of a 304 answer. */
export const NotModified = Type.Null({ description: 'Not modified since the ETag given' });

/** A person as others see them. */
export const Person = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
});
export type Person = Static<typeof Person>;

/** A team a personal collection is shared with (decision 0086). */
export const ShareTeam = Type.Object({
  id: Type.String(),
  name: Type.String(),
});
export type ShareTeam = Static<typeof ShareTeam>;

/** The one shape of every error response. */
export const ErrorResponse = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String({ description: 'The HTTP reason phrase' }),
  code: Type.String({ description: 'A stable, machine-readable code' }),
  message: Type.String({ description: 'A human-readable explanation' }),
  msg: Type.String({ description: 'The same text as message, for clients that read msg' }),
  field: Type.Optional(
    Type.String({
      description:
        'For a refused value (400): the property of the body, query string or path the message is about, so that a form shows the message by its field',
    }),
  ),
});
export type ErrorResponse = Static<typeof ErrorResponse>;

/** Stable error codes. */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  /** A personal access token past its expiry date (401); any other refused token is UNAUTHORIZED. */
  'ACCESS_TOKEN_EXPIRED',
  'INVALID_CREDENTIALS',
  'SECOND_FACTOR_REQUIRED',
  'SECOND_FACTOR_INVALID',
  /**
   * A single sign-on waiting for the second factor can no longer be finished: its ticket
   * expired, was used, was tried too often, or belongs to another browser (decision 0048).
   */
  'SIGN_IN_EXPIRED',
  /**
   * A sensitive change needs the person to prove who they are again (password, or a fresh
   * single sign-on) within the last few minutes: 403, see POST /api/auth/reauthenticate.
   */
  'REAUTHENTICATION_REQUIRED',
  /** The organization allows single sign-on only (told only after the right password). */
  'PASSWORD_SIGN_IN_OFF',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  /** The request did not arrive in time (a stalled upload or headers). */
  'REQUEST_TIMEOUT',
  'RATE_LIMITED',
  'DATABASE_UNAVAILABLE',
  'INTERNAL_ERROR',
  // A single-use link (an invitation) that is used, expired, revoked or unknown.
  'GONE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
