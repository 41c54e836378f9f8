import { Type, type Static } from 'typebox';
import { LIMITS } from './common.ts';
import { asTyped } from './text.ts';

/** The address fragment that carries an invitation token: `/#invitation=<token>`. */
export { INVITATION_FRAGMENT } from './markers.ts';

const Token = Type.String({ minLength: 16, maxLength: 200 });

export const InvitationTokenBody = Type.Object({ token: Token }, { additionalProperties: false });
export type InvitationTokenBody = Static<typeof InvitationTokenBody>;

export const InvitationResponse = Type.Object({
  person: Type.Object({ name: Type.String(), email: Type.String() }),
  organization: Type.Object({ name: Type.String() }),
  expiresAt: Type.String(),
});
export type InvitationResponse = Static<typeof InvitationResponse>;

export const AcceptInvitationBody = Type.Object(
  {
    token: Token,
    password: Type.String({
      minLength: LIMITS.password.min,
      maxLength: LIMITS.password.max,
      ...asTyped,
    }),
  },
  { additionalProperties: false },
);
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>;
