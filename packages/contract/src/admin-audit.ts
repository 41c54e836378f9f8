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
  // Teams.
  'team.created',
  'team.updated',
  'team.deleted',
  'team.member-added',
  'team.member-removed',
  'team.member-role-changed',
  // The organization.
  'organization.created',
  'organization.settings-changed',
  // Shares.
  'share.created',
  'share.deleted',
  'share.member-added',
  'share.member-removed',
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
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditActionSchema = Type.Union(AUDIT_ACTIONS.map((action) => Type.Literal(action)));
export type AuditActionSchema = Static<typeof AuditActionSchema>;
