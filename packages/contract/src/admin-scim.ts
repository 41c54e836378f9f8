import { Type, type Static } from 'typebox';
import { visibleText } from './text.ts';

/** SCIM 2.0 provisioning (decision 0084): the tokens the organization's identity system uses. */
export const SCIM_TOKEN_LIMITS = {
  name: 100,
  /** Live tokens an organization may hold at once. */
  perOrganization: 20,
} as const;

/** The path of the SCIM service, under the portal's own address. */
export const SCIM_BASE_PATH = '/scim/v2';

export const ScimToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  hint: Type.String({ description: 'The first characters of the token, e.g. spscim_Ab12' }),
  createdBy: Type.String({ description: 'The name of the administrator who made it, as it was' }),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});
export type ScimToken = Static<typeof ScimToken>;

export const ScimTokensResponse = Type.Object({
  items: Type.Array(ScimToken, { description: 'Live tokens, newest first; never the token' }),
});
export type ScimTokensResponse = Static<typeof ScimTokensResponse>;

export const CreateScimTokenBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: SCIM_TOKEN_LIMITS.name,
      description: 'Which identity system uses it, e.g. "Okta"',
      ...visibleText,
    }),
  },
  { additionalProperties: false },
);
export type CreateScimTokenBody = Static<typeof CreateScimTokenBody>;

export const CreatedScimTokenResponse = Type.Object({
  token: Type.String({ description: 'The token itself: shown this once, stored only as a hash' }),
  scimToken: ScimToken,
});
export type CreatedScimTokenResponse = Static<typeof CreatedScimTokenResponse>;
