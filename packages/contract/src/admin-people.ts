import { Type, type Static } from 'typebox';
import { TeamRoleSchema } from './admin-teams.ts';
import { Id, LIMITS, Name } from './common.ts';
import { asTyped } from './text.ts';

/** Limits of the people console. */
export const PEOPLE_LIMITS = {
  page: { default: 50, max: 200 },
  query: 200,
  bulk: 500,
  /** Team names shown on a row; the count says how many there are in all. */
  teamNames: 5,
  invitationDays: 7,
} as const;

export const PersonRole = Type.Union([Type.Literal('member'), Type.Literal('admin')]);
export type PersonRole = Static<typeof PersonRole>;
export const PersonStatus = Type.Union([
  Type.Literal('active'),
  Type.Literal('disabled'),
  Type.Literal('invited'),
]);
export type PersonStatus = Static<typeof PersonStatus>;
export const SIGN_IN_FILTERS = ['password', 'sso', 'never'] as const;
export type SignInFilter = (typeof SIGN_IN_FILTERS)[number];

const Email = Type.String({
  minLength: 3,
  maxLength: LIMITS.email,
  pattern: '^[^\\s@]+@[^\\s@]+$',
  description: 'An e-mail address',
});
const Password = Type.String({
  minLength: LIMITS.password.min,
  maxLength: LIMITS.password.max,
  ...asTyped,
});

/** A row of the people list. */
export const PersonRow = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: PersonRole,
  status: PersonStatus,
  lastSignInAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  /** How the person can sign in: a password, single sign-on identities. */
  hasPassword: Type.Boolean(),
  hasSso: Type.Boolean(),
  secondFactor: Type.Boolean(),
  teamCount: Type.Integer(),
  /** The first few team names, in name order. */
  teams: Type.Array(Type.String()),
});
export type PersonRow = Static<typeof PersonRow>;

export const PeopleQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: PEOPLE_LIMITS.query })),
    role: Type.Optional(PersonRole),
    status: Type.Optional(PersonStatus),
    team: Type.Optional(Id),
    signIn: Type.Optional(
      Type.Union([Type.Literal('password'), Type.Literal('sso'), Type.Literal('never')]),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 600 })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: PEOPLE_LIMITS.page.max,
        default: PEOPLE_LIMITS.page.default,
      }),
    ),
  },
  { additionalProperties: false },
);
export type PeopleQuery = Static<typeof PeopleQuery>;

export const PeopleResponse = Type.Object({
  items: Type.Array(PersonRow),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type PeopleResponse = Static<typeof PeopleResponse>;

export const InvitePersonBody = Type.Object(
  {
    name: Name,
    email: Email,
    role: Type.Optional(PersonRole),
    team: Type.Optional(
      Type.Object(
        { id: Id, role: Type.Optional(TeamRoleSchema) },
        {
          additionalProperties: false,
          description:
            'A team the person joins with the invitation (a member by default): both or neither',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type InvitePersonBody = Static<typeof InvitePersonBody>;

export const CreatePersonBody = Type.Object(
  { name: Name, email: Email, password: Password, role: Type.Optional(PersonRole) },
  { additionalProperties: false },
);
export type CreatePersonBody = Static<typeof CreatePersonBody>;

export const UpdatePersonBody = Type.Object(
  {
    name: Type.Optional(Name),
    email: Type.Optional(Email),
    role: Type.Optional(PersonRole),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdatePersonBody = Static<typeof UpdatePersonBody>;

/** An invitation made or sent again: the link to copy when no mail is configured. */
export const InvitationSentResponse = Type.Object({
  person: PersonRow,
  expiresAt: Type.String(),
  /** True when a mail with the link is on its way. */
  mailed: Type.Boolean(),
  /** The link to hand over, when no mail is configured; null when it was mailed. */
  link: Type.Union([Type.String(), Type.Null()]),
});
export type InvitationSentResponse = Static<typeof InvitationSentResponse>;

/** What a person owns that others share: asked about before they are deleted. */
export const OffboardingResponse = Type.Object({
  collections: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), memberCount: Type.Integer() }),
  ),
});
export type OffboardingResponse = Static<typeof OffboardingResponse>;

/** What becomes of the shared collections of the people deleted. */
export const OffboardingChoice = Type.Object(
  {
    collections: Type.Union([Type.Literal('transfer'), Type.Literal('delete')], {
      description: 'Transfer shared collections to a colleague, or delete them',
    }),
    transferTo: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type OffboardingChoice = Static<typeof OffboardingChoice>;

export const DeletePersonBody = OffboardingChoice;
export type DeletePersonBody = Static<typeof DeletePersonBody>;

export const BULK_ACTIONS = ['disable', 'enable', 'role', 'sign-out', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BulkPeopleBody = Type.Object(
  {
    ids: Type.Array(Id, { minItems: 1, maxItems: PEOPLE_LIMITS.bulk, uniqueItems: true }),
    action: Type.Union([
      Type.Literal('disable'),
      Type.Literal('enable'),
      Type.Literal('role'),
      Type.Literal('sign-out'),
      Type.Literal('delete'),
    ]),
    role: Type.Optional(PersonRole),
    offboarding: Type.Optional(OffboardingChoice),
  },
  { additionalProperties: false },
);
export type BulkPeopleBody = Static<typeof BulkPeopleBody>;

export const BulkPeopleResponse = Type.Object({
  action: Type.String(),
  /** How many people the action changed (those already so are counted as unchanged). */
  changed: Type.Integer(),
  unchanged: Type.Integer(),
});
export type BulkPeopleResponse = Static<typeof BulkPeopleResponse>;
