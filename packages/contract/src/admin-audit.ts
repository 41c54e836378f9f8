import { Type, type Static } from 'typebox';

/**
 * Every action the audit log records, by its stable name. The console filters on these;
 * the server records nothing else.
 */
export const AUDIT_ACTIONS = [
  // First run.
  'setup.completed',
  'setup.refused',
  // Signing in and out.
  'sign-in.succeeded',
  'sign-in.failed',
  'sign-out',
  'session.ended',
  'sessions.ended-everywhere',
  // The person proved who they are again before a sensitive change (decision 0048).
  'session.reauthenticated',
  'access-token.created',
  'access-token.revoked',
  'second-factor.enabled',
  'second-factor.disabled',
  'second-factor.reset',
  'password.changed',
  'password.reset',
  // People.
  'person.created',
  'person.invited',
  'person.invitation-accepted',
  'person.updated',
  'person.role-changed',
  'person.disabled',
  'person.enabled',
  'person.deleted',
  // A sign-in's groups changed the person's teams or role (decision 0084).
  'person.groups-synced',
  // People imported from a CSV file: one entry for the import, beside each person's (decision 0085).
  'person.imported',
  // Teams.
  'team.created',
  'team.updated',
  'team.deleted',
  'team.member-added',
  'team.member-removed',
  'team.member-role-changed',
  // SCIM changed a group's members: one entry for the people who joined and left (decision 0084).
  'team.members-synced',
  // The identity system's provisioning tokens (decision 0084).
  'scim-token.created',
  'scim-token.revoked',
  // The organization.
  'organization.created',
  'organization.settings-changed',
  // Shares.
  'share.created',
  'share.deleted',
  'share.member-added',
  'share.member-removed',
  // A share for whole teams (decision 0086).
  'share.team-added',
  'share.team-removed',
  // Team and organization content.
  'content.link-created',
  'content.link-updated',
  'content.link-moved',
  'content.link-deleted',
  'content.collection-created',
  'content.collection-updated',
  'content.collection-moved',
  'content.collection-deleted',
  'content.collection-reordered',
  // Suggestions.
  'suggestion.created',
  'suggestion.accepted',
  'suggestion.declined',
  // Deletions undone (decision 0052).
  'content.link-restored',
  'content.collection-restored',
  'share.restored',
  // A link's check said broken, and the people who run its space said it is not (a site that
  // refuses robots): not listed as broken again until its address changes.
  'content.link-check-dismissed',
  // A bookmark file imported into a team or organization space, and that import undone
  // (decision 0087): one entry each, with the counts.
  'content.bookmarks-imported',
  'content.bookmarks-import-undone',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditActionSchema = Type.Union(AUDIT_ACTIONS.map((action) => Type.Literal(action)));
export type AuditActionSchema = Static<typeof AuditActionSchema>;

/** The groups of actions, by the prefix their names share (`sign-out` is its own). */
export const AUDIT_ACTION_GROUPS = [
  'setup.',
  'sign-in.',
  'sign-out',
  'session.',
  'sessions.',
  'access-token.',
  'scim-token.',
  'second-factor.',
  'password.',
  'person.',
  'team.',
  'organization.',
  'share.',
  'content.',
  'suggestion.',
] as const;

/** A page of the audit log holds at most this many entries. */
export const AUDIT_PAGE = { default: 50, max: 200 } as const;

const instant = (description: string) =>
  Type.String({
    format: 'date-time',
    maxLength: 40,
    description: `${description}: ISO 8601 with a time zone, e.g. 2026-11-23T00:00:00Z`,
  });

/** The filters of the audit log, shared by the list and the CSV export. */
export const AuditFilterProperties = {
  person: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{21}$',
      description: 'Entries this person did or that were done to them',
    }),
  ),
  action: Type.Optional(
    Type.String({
      maxLength: 1000,
      pattern: '^[a-z-]+(\\.[a-z-]*)?(,[a-z-]+(\\.[a-z-]*)?)*$',
      description:
        'Comma-separated action names or group prefixes ending in a dot, e.g. `person.,sign-in.failed`',
    }),
  ),
  from: Type.Optional(instant('From this instant on')),
  to: Type.Optional(instant('Before this instant')),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Words in the names and e-mails of actor and target',
    }),
  ),
};

export const AuditExportQuery = Type.Object(AuditFilterProperties, {
  additionalProperties: false,
});
export type AuditExportQuery = Static<typeof AuditExportQuery>;

export const AuditLogQuery = Type.Object(
  {
    ...AuditFilterProperties,
    cursor: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'The `nextCursor` of the previous page',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: AUDIT_PAGE.max, default: AUDIT_PAGE.default }),
    ),
  },
  { additionalProperties: false },
);
export type AuditLogQuery = Static<typeof AuditLogQuery>;

const Json = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

export const AuditEntry = Type.Object({
  id: Type.String(),
  occurredAt: Type.String({ format: 'date-time' }),
  actor: Type.Union([
    Type.Object({
      id: Type.Union([Type.String(), Type.Null()]),
      name: Type.Union([Type.String(), Type.Null()]),
      email: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  action: Type.String({ description: 'One of AUDIT_ACTIONS' }),
  target: Type.Union([
    Type.Object({
      type: Type.String(),
      id: Type.String(),
      label: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  ip: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  before: Json,
  after: Json,
  details: Json,
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditLogResponse = Type.Object({
  items: Type.Array(AuditEntry),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next, older page; null on the last page',
  }),
});
export type AuditLogResponse = Static<typeof AuditLogResponse>;
