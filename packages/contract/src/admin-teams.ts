import { Type, type Static } from 'typebox';
import { Id, LIMITS, Name, Person } from './common.ts';

const exact = { additionalProperties: false } as const;

/** A page size of an administration list. */
export const AdminPageLimit = Type.Integer({ minimum: 1, maximum: 100, default: 50 });

/** A search text of an administration list. */
export const AdminSearch = Type.String({
  maxLength: LIMITS.peerQuery,
  description: 'Matched case-insensitively as a substring; % _ and \\ are literal',
});

/** `GET /api/admin/teams`: teams by name, a page at a time (keyset: `after` a team id). */
export const TeamsQuery = Type.Object(
  {
    query: Type.Optional(AdminSearch),
    limit: Type.Optional(AdminPageLimit),
    after: Type.Optional(Id),
  },
  exact,
);
export type TeamsQuery = Static<typeof TeamsQuery>;

export const TeamSummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    memberCount: Type.Integer(),
    editorCount: Type.Integer(),
    buddy: Type.Union([Person, Type.Null()], { description: 'The support contact, a member' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  exact,
);
export type TeamSummary = Static<typeof TeamSummary>;

export const TeamsResponse = Type.Object(
  {
    items: Type.Array(TeamSummary),
    next: Type.Union([Type.String(), Type.Null()], {
      description: 'The `after` of the next page; null on the last page',
    }),
  },
  exact,
);
export type TeamsResponse = Static<typeof TeamsResponse>;

/** One team, with what deleting it would delete. */
export const TeamDetail = Type.Object(
  {
    ...TeamSummary.properties,
    collectionCount: Type.Integer({ description: 'Collections of the team, nested ones too' }),
    linkCount: Type.Integer({ description: 'Links in those collections' }),
  },
  exact,
);
export type TeamDetail = Static<typeof TeamDetail>;

/** `POST /api/admin/teams`. */
export const CreateTeamBody = Type.Object({ name: Name }, exact);
export type CreateTeamBody = Static<typeof CreateTeamBody>;

/** `PATCH /api/admin/teams/{id}`: rename, and choose or clear the buddy. */
export const UpdateTeamBody = Type.Object(
  {
    name: Type.Optional(Name),
    buddyId: Type.Optional(
      Type.Union([Id, Type.Null()], { description: 'A member of the team, or null for none' }),
    ),
  },
  { ...exact, minProperties: 1 },
);
export type UpdateTeamBody = Static<typeof UpdateTeamBody>;

/**
 * `DELETE /api/admin/teams/{id}`: the counts the administrator confirmed (from
 * `GET /api/admin/teams/{id}`). When the team holds more or fewer by now, nothing is
 * deleted and the answer is 409.
 */
export const DeleteTeamQuery = Type.Object(
  {
    collections: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
    links: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
  },
  exact,
);
export type DeleteTeamQuery = Static<typeof DeleteTeamQuery>;

export const TEAM_ROLES = ['member', 'editor'] as const;
export const TeamRoleSchema = Type.Union([Type.Literal('member'), Type.Literal('editor')]);

/** `GET /api/admin/teams/{id}/members`. */
export const TeamMembersQuery = Type.Object(
  {
    query: Type.Optional(AdminSearch),
    role: Type.Optional(TeamRoleSchema),
    limit: Type.Optional(AdminPageLimit),
    after: Type.Optional(Id),
  },
  exact,
);
export type TeamMembersQuery = Static<typeof TeamMembersQuery>;

export const MEMBERSHIP_SOURCES = ['console', 'scim', 'sign-in'] as const;
export const MembershipSource = Type.Union([
  Type.Literal('console'),
  Type.Literal('scim'),
  Type.Literal('sign-in'),
]);
export type MembershipSource = (typeof MEMBERSHIP_SOURCES)[number];

export const TeamMember = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('invited'), Type.Literal('disabled')]),
    role: TeamRoleSchema,
    addedAt: Type.String({ format: 'date-time' }),
    sources: Type.Array(MembershipSource, {
      minItems: 1,
      description:
        "Where the membership came from (decision 0084): by hand in the console, from SCIM, from a sign-in's groups. It lasts while one of them holds it; a sync never removes one made by hand.",
    }),
  },
  exact,
);
export type TeamMember = Static<typeof TeamMember>;

export const TeamMembersResponse = Type.Object(
  { items: Type.Array(TeamMember), next: Type.Union([Type.String(), Type.Null()]) },
  exact,
);
export type TeamMembersResponse = Static<typeof TeamMembersResponse>;

const UserIds = Type.Array(Id, {
  minItems: 1,
  maxItems: LIMITS.membersPerCall,
  uniqueItems: true,
  description: 'People of the organization',
});

/** `POST /api/admin/teams/{id}/members`: add people; those already in keep their role. */
export const AddTeamMembersBody = Type.Object(
  {
    userIds: UserIds,
    role: Type.Optional(TeamRoleSchema),
  },
  exact,
);
export type AddTeamMembersBody = Static<typeof AddTeamMembersBody>;

/** `POST /api/admin/teams/{id}/members/remove`: take people out of the team. */
export const RemoveTeamMembersBody = Type.Object({ userIds: UserIds }, exact);
export type RemoveTeamMembersBody = Static<typeof RemoveTeamMembersBody>;

/** How many people a bulk call changed. */
export const TeamMembersChanged = Type.Object(
  { changed: Type.Integer({ description: 'People added (or removed); the others were already' }) },
  exact,
);
export type TeamMembersChanged = Static<typeof TeamMembersChanged>;

/** `PATCH /api/admin/teams/{id}/members/{userId}`: make editor or member. */
export const UpdateTeamMemberBody = Type.Object({ role: TeamRoleSchema }, exact);
export type UpdateTeamMemberBody = Static<typeof UpdateTeamMemberBody>;

export const TeamMemberParams = Type.Object({ id: Id, userId: Id }, exact);
export type TeamMemberParams = Static<typeof TeamMemberParams>;
