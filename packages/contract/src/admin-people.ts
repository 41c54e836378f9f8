import { Type, type Static } from 'typebox';
import { TeamRoleSchema } from './admin-teams.ts';
import { Id, LIMITS, Name } from './common.ts';
import { asTyped, multiline } from './text.ts';

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

/**
 * What became of an invitation's mail when the answer was made (decision 0079): put on the
 * mail queue (whose worker sends it a moment later), not set up on this server, or set up
 * but not taken by the queue. In the last two the answer carries the link to pass on.
 */
export const InvitationMail = Type.Union(
  [Type.Literal('queued'), Type.Literal('not-configured'), Type.Literal('not-queued')],
  {
    description:
      '`queued`: a mail with the link is on the mail queue (see the person for what the ' +
      'mail server said); `not-configured`: no mail is set up; `not-queued`: mail is set up ' +
      'but the queue did not take it. Without a queued mail the answer carries the link.',
  },
);
export type InvitationMail = Static<typeof InvitationMail>;

/** An invitation made or sent again: whether it went by mail, or the link to copy. */
export const InvitationSentResponse = Type.Object({
  person: PersonRow,
  expiresAt: Type.String(),
  mail: InvitationMail,
  /** True when `mail` is `queued` (kept for the scripts that read it). */
  mailed: Type.Boolean(),
  /** The link to hand over when no mail was queued; null when one was. */
  link: Type.Union([Type.String(), Type.Null()]),
});
export type InvitationSentResponse = Static<typeof InvitationSentResponse>;

/**
 * What became of an open invitation's mail, as the mail queue's worker last found it:
 * `queued` (not tried yet), `retrying` (the mail server refused it or could not be reached;
 * it is tried again), `sent` (the mail server accepted it), `failed` (every try failed);
 * null when no mail was queued and the link was handed to the administrator.
 */
export const InvitationMailState = Type.Union([
  Type.Literal('queued'),
  Type.Literal('retrying'),
  Type.Literal('sent'),
  Type.Literal('failed'),
  Type.Null(),
]);
export type InvitationMailState = Static<typeof InvitationMailState>;

/** A person's open invitation: neither accepted nor replaced by a newer one. */
export const OpenInvitation = Type.Object({
  createdAt: Type.String(),
  /** When its link stops working (it may be past: the invitation expired). */
  expiresAt: Type.String(),
  mail: InvitationMailState,
  /** When `mail` last changed; null without a mail. */
  mailAt: Type.Union([Type.String(), Type.Null()]),
});
export type OpenInvitation = Static<typeof OpenInvitation>;

/** One person's page in the console: their row, and their open invitation if any. */
export const PersonDetail = Type.Object({
  ...PersonRow.properties,
  invitation: Type.Union([OpenInvitation, Type.Null()]),
});
export type PersonDetail = Static<typeof PersonDetail>;

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

/** Limits of an import of people from a CSV file (decision 0085). */
export const PEOPLE_IMPORT_LIMITS = {
  /** The file's size in bytes once encoded as UTF-8. */
  bytes: 5 * 1024 * 1024,
  /** Rows of people, the header not counted. */
  rows: 20_000,
  /** Planned rows the preview shows. */
  previewRows: 50,
} as const;

export const PeopleImportBody = Type.Object(
  {
    csv: Type.String({
      title: 'CSV file',
      description:
        'The file as text (UTF-8). The header names the columns, in any case and order: ' +
        '`name`, `email` (or `e-mail`), and optionally `role` (`member` or `admin`) and ' +
        '`teams` (team names separated by `;` or `|`). 5 MB and 20,000 rows at most.',
      ...multiline,
    }),
  },
  { additionalProperties: false },
);
export type PeopleImportBody = Static<typeof PeopleImportBody>;

export const PeopleImportApplyBody = Type.Object(
  {
    csv: PeopleImportBody.properties.csv,
    sendInvitations: Type.Boolean({
      description: 'Mail each new person their invitation, when mail is set up',
    }),
  },
  { additionalProperties: false },
);
export type PeopleImportApplyBody = Static<typeof PeopleImportApplyBody>;

export const PeopleImportAction = Type.Union([
  Type.Literal('create'),
  Type.Literal('change'),
  Type.Literal('unchanged'),
]);
export type PeopleImportAction = Static<typeof PeopleImportAction>;

/** A row of the file the import refuses, and why. */
export const PeopleImportRefusal = Type.Object({
  /** The row's number in the file, the header being row 1 (as a spreadsheet shows it). */
  row: Type.Integer(),
  email: Type.String(),
  reason: Type.String(),
});
export type PeopleImportRefusal = Static<typeof PeopleImportRefusal>;

/** A row the import will apply: what it makes of the person. */
export const PeopleImportPlannedRow = Type.Object({
  row: Type.Integer(),
  action: PeopleImportAction,
  name: Type.String(),
  email: Type.String(),
  role: PersonRole,
  /** The teams the person joins by this import (memberships are only ever added). */
  teamsAdded: Type.Array(Type.String()),
  /** What changes of an existing person: `name`, `role`, `teams`. */
  changes: Type.Array(Type.String()),
});
export type PeopleImportPlannedRow = Static<typeof PeopleImportPlannedRow>;

export const PeopleImportPreview = Type.Object({
  create: Type.Integer(),
  change: Type.Integer(),
  unchanged: Type.Integer(),
  refused: Type.Array(PeopleImportRefusal),
  /** The first 50 rows that are not refused, in file order. */
  rows: Type.Array(PeopleImportPlannedRow),
  /** Whether mail is set up: invitations can then be mailed. */
  mailEnabled: Type.Boolean(),
  /** Whether the file makes administrators or changes roles (a fresh sign-in is asked). */
  changesRoles: Type.Boolean(),
});
export type PeopleImportPreview = Static<typeof PeopleImportPreview>;

export const PeopleImportResult = Type.Object({
  created: Type.Integer(),
  changed: Type.Integer(),
  unchanged: Type.Integer(),
  refused: Type.Array(PeopleImportRefusal),
  /** Invitation mails put on the mail queue. */
  invitationsMailed: Type.Integer(),
});
export type PeopleImportResult = Static<typeof PeopleImportResult>;
