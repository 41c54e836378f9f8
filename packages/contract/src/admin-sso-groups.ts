import { Type, type Static } from 'typebox';
import { Id } from './common.ts';
import { visibleText } from './text.ts';

/** Teams and the administrator role from a sign-in's groups (decision 0084). */
export const SSO_GROUP_LIMITS = {
  claim: 100,
  group: 500,
  mappings: 500,
  /** A claim with this many groups or more may have been cut by the provider (Okta cuts at 100). */
  cutAt: 100,
} as const;

const exact = { additionalProperties: false } as const;

const Role = Type.Union([Type.Literal('member'), Type.Literal('editor')]);

export const SsoGroupMapping = Type.Object(
  {
    group: Type.String({
      minLength: 1,
      maxLength: SSO_GROUP_LIMITS.group,
      title: 'Group',
      description: 'The group as the claim names it: its id or its name, compared exactly',
      ...visibleText,
    }),
    teamId: Type.Union([Id, Type.Null()], { description: 'The team the group gives; null: none' }),
    role: Type.Union([Role, Type.Null()], {
      description: 'The role in the team; null exactly when there is no team',
    }),
    admin: Type.Boolean({ description: 'The group makes its members administrators' }),
  },
  exact,
);
export type SsoGroupMapping = Static<typeof SsoGroupMapping>;

export const SsoGroupProvider = Type.Object(
  {
    providerId: Type.String(),
    name: Type.String({ description: "The provider's name, as on the sign-in button" }),
    claim: Type.Union([Type.String(), Type.Null()], {
      description: 'The claim that lists the groups; null: groups are not read',
    }),
    mappings: Type.Array(
      Type.Object(
        {
          group: Type.String(),
          teamId: Type.Union([Type.String(), Type.Null()]),
          teamName: Type.Union([Type.String(), Type.Null()]),
          role: Type.Union([Role, Type.Null()]),
          admin: Type.Boolean(),
        },
        exact,
      ),
    ),
  },
  exact,
);
export type SsoGroupProvider = Static<typeof SsoGroupProvider>;

export const SsoGroupsResponse = Type.Object(
  { items: Type.Array(SsoGroupProvider, { description: 'Each configured provider' }) },
  exact,
);
export type SsoGroupsResponse = Static<typeof SsoGroupsResponse>;

export const UpdateSsoGroupsBody = Type.Object(
  {
    claim: Type.Union(
      [
        Type.String({
          minLength: 1,
          maxLength: SSO_GROUP_LIMITS.claim,
          pattern: '^[A-Za-z0-9_:./-]+$',
          title: 'Groups claim',
          description: 'e.g. "groups"; letters, digits and _ : . / -',
        }),
        Type.Null(),
      ],
      { description: 'The claim that lists the groups; null stops reading groups' },
    ),
    mappings: Type.Array(SsoGroupMapping, { maxItems: SSO_GROUP_LIMITS.mappings }),
  },
  exact,
);
export type UpdateSsoGroupsBody = Static<typeof UpdateSsoGroupsBody>;

export const SsoGroupsParams = Type.Object(
  { providerId: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,39}$' }) },
  exact,
);
export type SsoGroupsParams = Static<typeof SsoGroupsParams>;
