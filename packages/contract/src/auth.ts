import { Type, type Static } from 'typebox';
import { LIMITS } from './common.ts';

export const LOGIN_METHOD_TYPES = ['email-password', 'sso-oidc-id-token'] as const;

/** A way to sign in, as listed by `GET /api/auth/methods`. */
export const LoginMethod = Type.Object({
  type: Type.Union([Type.Literal('email-password'), Type.Literal('sso-oidc-id-token')]),
  name: Type.String({ description: 'Shown on the sign-in button' }),
  loginUrl: Type.Optional(
    Type.String({ description: 'For single sign-on: where the button sends the browser' }),
  ),
});
export type LoginMethod = Static<typeof LoginMethod>;

export const LoginMethodsResponse = Type.Array(LoginMethod);
export type LoginMethodsResponse = Static<typeof LoginMethodsResponse>;

/** `POST /api/auth/sessions/`: sign in with e-mail and password. */
export const CreateSessionBody = Type.Object(
  {
    type: Type.Literal('email-password'),
    email: Type.String({ maxLength: LIMITS.email, description: 'The e-mail address, any case' }),
    password: Type.String({ maxLength: LIMITS.password.max, description: 'As typed' }),
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
    expiresAt: Type.String({ description: 'ISO time of absolute expiry' }),
  }),
});
export type CurrentSessionResponse = Static<typeof CurrentSessionResponse>;
