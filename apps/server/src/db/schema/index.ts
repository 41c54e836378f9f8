// Every table, for the Drizzle client. The SQL in ../migrations is the source of truth;
// these definitions mirror it for typed queries, and schema-mirror.test.ts holds them to
// what the migrations make.
export * from './organizations.table.ts';
export * from './users.table.ts';
export * from './teams.table.ts';
export * from './collections.table.ts';
export * from './links.table.ts';
export * from './favorites.table.ts';
export * from './shares.table.ts';
export * from './sessions.table.ts';
export * from './identities.table.ts';
export * from './access-tokens.table.ts';
export * from './second-factors.table.ts';
export * from './administration.table.ts';
export * from './undo.table.ts';
export * from './people-changes.table.ts';
export * from './menu-scopes.table.ts';
export * from './icons.table.ts';
export * from './link-checks.table.ts';
export * from './instances.table.ts';
export * from './scim-tokens.table.ts';
export * from './sso-groups.table.ts';
