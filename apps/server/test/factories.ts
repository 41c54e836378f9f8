import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import {
  collections,
  collectionShares,
  favorites,
  links,
  organizations,
  shareMembers,
  shareTeams,
  teamMemberships,
  teams,
  users,
  type OrganizationRole,
  type TeamRole,
} from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import type { App } from '../src/app.ts';

export const PASSWORD = 'correct horse battery';

/**
 * argon2id at a small cost for the tests' passwords, in the hashes the factories make and in
 * the configuration of the tests' apps (test/app.ts): every sign-in of a test checks a
 * password, and OWASP's parameters, the server's (config.ts, held by config.test.ts), cost
 * some 50 ms of CPU a check. The tests are of what the server does with a password, not of
 * argon2's strength. The tests that start the real server or command keep the real cost.
 */
export const TEST_ARGON2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

// One hash for every test person.
let passwordHash: Promise<string> | null = null;
const hashed = () => (passwordHash ??= hashPassword(PASSWORD, TEST_ARGON2));

let counter = 0;
const next = () => (counter += 1);

export async function createOrganization(db: Database, overrides: { name?: string } = {}) {
  const row = { id: newId(), name: overrides.name ?? `Organization ${next()}` };
  await db.insert(organizations).values(row);
  return row;
}

export interface TestUser {
  id: string;
  organizationId: string;
  name: string;
  email: string;
  role: OrganizationRole;
  /** The user's own root collection ("My Space"). */
  rootId: string;
}

export async function createUser(
  db: Database,
  organizationId: string,
  overrides: Partial<{
    name: string;
    email: string;
    role: OrganizationRole;
    status: 'active' | 'disabled' | 'invited';
    password: string | null;
  }> = {},
): Promise<TestUser> {
  const n = next();
  const id = newId();
  const name = overrides.name ?? `Person ${n}`;
  const email = overrides.email ?? `person${n}-${id.slice(0, 6)}@example.test`;
  const role = overrides.role ?? 'member';
  await db.insert(users).values({
    id,
    organizationId,
    name,
    email,
    role,
    status: overrides.status ?? 'active',
    passwordHash:
      overrides.password === null
        ? null
        : overrides.password
          ? await hashPassword(overrides.password, TEST_ARGON2)
          : await hashed(),
  });
  const rootId = newId();
  await db.insert(collections).values({
    id: rootId,
    organizationId,
    ownerType: 'user',
    ownerUserId: id,
    isRoot: true,
    name: 'My Space',
    createdBy: id,
  });
  return { id, organizationId, name, email, role, rootId };
}

export async function createTeam(
  db: Database,
  organizationId: string,
  overrides: { name?: string; buddyId?: string | null } = {},
) {
  const row = {
    id: newId(),
    organizationId,
    name: overrides.name ?? `Team ${next()}`,
    buddyId: overrides.buddyId ?? null,
  };
  await db.insert(teams).values(row);
  return row;
}

export async function addTeamMember(
  db: Database,
  team: { id: string; organizationId: string },
  userId: string,
  role: TeamRole = 'member',
) {
  await db
    .insert(teamMemberships)
    .values({ teamId: team.id, userId, organizationId: team.organizationId, role });
}

type CollectionOwner =
  | { user: TestUser }
  | { team: { id: string; organizationId: string } }
  | { organizationId: string };

export async function createCollection(
  db: Database,
  owner: CollectionOwner,
  overrides: Partial<{
    name: string;
    description: string;
    color: string | null;
    parentId: string | null;
    position: number;
  }> = {},
) {
  const id = newId();
  const base =
    'user' in owner
      ? {
          organizationId: owner.user.organizationId,
          ownerType: 'user' as const,
          ownerUserId: owner.user.id,
          parentId: overrides.parentId === undefined ? owner.user.rootId : overrides.parentId,
        }
      : 'team' in owner
        ? {
            organizationId: owner.team.organizationId,
            ownerType: 'team' as const,
            ownerTeamId: owner.team.id,
            parentId: overrides.parentId ?? null,
          }
        : {
            organizationId: owner.organizationId,
            ownerType: 'organization' as const,
            parentId: overrides.parentId ?? null,
          };
  const row = {
    id,
    ...base,
    name: overrides.name ?? `Collection ${next()}`,
    description: overrides.description ?? '',
    color: overrides.color ?? null,
    position: overrides.position ?? next(),
  };
  await db.insert(collections).values(row);
  return row;
}

export async function createLink(
  db: Database,
  collection: { id: string; organizationId: string },
  overrides: Partial<{
    name: string;
    description: string;
    url: string;
    icon: string | null;
    appName: string | null;
    createdBy: string | null;
    position: number;
  }> = {},
) {
  const n = next();
  const row = {
    id: newId(),
    organizationId: collection.organizationId,
    collectionId: collection.id,
    name: overrides.name ?? `Link ${n}`,
    description: overrides.description ?? '',
    url: overrides.url ?? `https://example.com/${n}`,
    icon: overrides.icon ?? null,
    appName: overrides.appName ?? null,
    createdBy: overrides.createdBy ?? null,
    position: overrides.position ?? n,
  };
  await db.insert(links).values(row);
  return row;
}

export async function createFavorite(
  db: Database,
  user: TestUser,
  linkId: string,
  collectionId: string = user.rootId,
) {
  const row = {
    id: newId(),
    organizationId: user.organizationId,
    userId: user.id,
    linkId,
    collectionId,
    position: next(),
  };
  await db.insert(favorites).values(row);
  return row;
}

/** Shares a personal collection; the owner is a member too. */
export async function createShare(
  db: Database,
  owner: TestUser,
  collectionId: string,
  memberIds: string[],
) {
  const id = newId();
  await db
    .insert(collectionShares)
    .values({ id, organizationId: owner.organizationId, collectionId, createdBy: owner.id });
  await db.insert(shareMembers).values(
    [owner.id, ...memberIds].map((userId) => ({
      shareId: id,
      userId,
      organizationId: owner.organizationId,
    })),
  );
  return { id, collectionId };
}

/** Shares a shared collection with a team too: its members become members (migration 0023). */
export async function shareWithTeam(
  db: Database,
  share: { id: string },
  team: { id: string; organizationId: string },
  addedBy: string | null = null,
) {
  await db
    .insert(shareTeams)
    .values({ shareId: share.id, teamId: team.id, organizationId: team.organizationId, addedBy });
}

/** Signs a person in through the API and returns the bearer header. */
export async function signIn(app: App, user: { email: string }, password = PASSWORD) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sessions/',
    payload: { type: 'email-password', email: user.email, password },
  });
  if (response.statusCode !== 201) {
    throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  }
  const { token } = response.json<{ token: string }>();
  return { token, headers: { authorization: `Bearer ${token}` } };
}

/** Counts rows of a table, optionally filtered, to assert that nothing changed. */
export async function countRows(
  db: Database,
  table: string,
  where?: { column: string; value: string },
) {
  const query = where
    ? sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(where.column)} = ${where.value}`
    : sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`;
  const result = (await db.execute(query)) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n ?? 0);
}
