import { Type, type Static } from 'typebox';
import { LIMITS } from './common.ts';
import { asTyped, visibleText } from './text.ts';

/** `GET /api/setup`: whether this installation still waits for its first run. */
export const SetupStatusResponse = Type.Object({
  required: Type.Boolean({
    description: 'True while no organization exists: the web app shows the setup screen',
  }),
});
export type SetupStatusResponse = Static<typeof SetupStatusResponse>;

/**
 * `POST /api/setup`: creates the organization and its first administrator, once, and signs
 * the administrator in (201 with a session token, like `POST /api/auth/sessions`).
 */
export const CompleteSetupBody = Type.Object(
  {
    organizationName: Type.String({
      title: "the organization's name",
      minLength: 1,
      maxLength: LIMITS.name,
      description: 'The name of the organization',
      ...visibleText,
    }),
    name: Type.String({
      title: "the administrator's name",
      minLength: 1,
      maxLength: LIMITS.name,
      description: "The first administrator's name",
      ...visibleText,
    }),
    email: Type.String({
      title: 'the e-mail address',
      minLength: 3,
      maxLength: LIMITS.email,
      description: "The first administrator's e-mail address",
    }),
    password: Type.String({
      title: 'the password',
      minLength: LIMITS.password.min,
      maxLength: LIMITS.password.max,
      description: '8 to 128 characters, taken exactly as typed',
      ...asTyped,
    }),
    setupCode: Type.String({
      title: 'the setup code',
      minLength: 1,
      maxLength: 64,
      description: 'The one-time code the server printed in its log at start',
    }),
  },
  { additionalProperties: false },
);
export type CompleteSetupBody = Static<typeof CompleteSetupBody>;
