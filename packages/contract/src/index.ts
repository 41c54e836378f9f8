// The package's public entry: the wire contract of the Signpost API.
export * from './common.ts';
export * from './auth.ts';
export * from './menu.ts';
export * from './consumer.ts';
export * from './admin-audit.ts';
export * from './setup.ts';
export * from './admin-teams.ts';
export * from './admin-organization.ts';
export * from './admin-suggestions.ts';
export * from './admin-people.ts';
export * from './invitations.ts';
export * from './text.ts';
export * from './undo.ts';
export * from './icons.ts';
export * from './link-health.ts';
export * from './admin-scim.ts';
export * from './admin-sso-groups.ts';
