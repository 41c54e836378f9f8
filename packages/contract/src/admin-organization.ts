import { Type, type Static } from 'typebox';
import { LIMITS, Name } from './common.ts';
import { multiline } from './text.ts';

const exact = { additionalProperties: false } as const;

/** Limits of the organization settings. */
export const ORGANIZATION_LIMITS = {
  intro: 2000,
  ssoDomains: 100,
  domain: 253,
  auditRetentionDays: { min: 1, max: 3650 },
} as const;

const FooterUrl = Type.Union([Type.String({ maxLength: LIMITS.url }), Type.Null()], {
  description: 'An http(s) address; null or an empty text for none (the built-in form)',
});
const Intro = Type.String({
  maxLength: ORGANIZATION_LIMITS.intro,
  description: 'Shown in the space’s info dialog; empty for the built-in text; may span lines',
  ...multiline,
});

/** The intro texts of the three kinds of space. */
export const SpaceIntros = Type.Object(
  { personal: Type.String(), team: Type.String(), organization: Type.String() },
  exact,
);
export type SpaceIntros = Static<typeof SpaceIntros>;

/** `GET /api/admin/organization`. */
export const OrganizationSettings = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    feedbackUrl: Type.Union([Type.String(), Type.Null()]),
    consentUrl: Type.Union([Type.String(), Type.Null()]),
    intros: SpaceIntros,
    passwordSignIn: Type.Boolean({
      description: 'False: nobody of the organization signs in with a password (SSO only)',
    }),
    ssoDomains: Type.Array(Type.String(), {
      description: 'E-mail domains single sign-on may create people for (lower case)',
    }),
    auditRetentionDays: Type.Integer(),
    ssoConfigured: Type.Boolean({
      description: 'Whether a single sign-on provider serves this organization (read only)',
    }),
    publicAddressWarning: Type.Optional(
      Type.String({
        description:
          'Present when what the server sends people would carry an address only its own computer knows (read only): invitation links on a PUBLIC_URL that is unset or local (localhost, 127.0.0.1), mail sent from an address at localhost. In words, saying which setting to change',
      }),
    ),
  },
  exact,
);
export type OrganizationSettings = Static<typeof OrganizationSettings>;

/** `PATCH /api/admin/organization`: the fields to change, at least one. */
export const UpdateOrganizationBody = Type.Object(
  {
    name: Type.Optional(Name),
    feedbackUrl: Type.Optional(FooterUrl),
    consentUrl: Type.Optional(FooterUrl),
    personalIntro: Type.Optional(Intro),
    teamIntro: Type.Optional(Intro),
    organizationIntro: Type.Optional(Intro),
    passwordSignIn: Type.Optional(Type.Boolean()),
    ssoDomains: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: ORGANIZATION_LIMITS.domain }), {
        maxItems: ORGANIZATION_LIMITS.ssoDomains,
      }),
    ),
    auditRetentionDays: Type.Optional(
      Type.Integer({
        minimum: ORGANIZATION_LIMITS.auditRetentionDays.min,
        maximum: ORGANIZATION_LIMITS.auditRetentionDays.max,
      }),
    ),
  },
  { ...exact, minProperties: 1 },
);
export type UpdateOrganizationBody = Static<typeof UpdateOrganizationBody>;
