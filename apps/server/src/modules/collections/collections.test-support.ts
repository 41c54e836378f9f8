// Helpers for the collection and link route tests: a cast of people in every relation to a
// set of collections, and a snapshot of every row these calls can touch.
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import {
  collections,
  collectionShares,
  favorites,
  links,
  linkSuggestions,
  shareMembers,
} from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import {
  addTeamMember,
  createCollection,
  createOrganization,
  createShare,
  createTeam,
  createUser,
  signIn,
  type TestUser,
} from '../../../test/factories.ts';

export type Person = TestUser & { headers: { authorization: string } };

export async function createPerson(
  app: App,
  db: Database,
  organizationId: string,
  role: 'member' | 'admin' = 'member',
): Promise<Person> {
  const user = await createUser(db, organizationId, { role });
  const { headers } = await signIn(app, user);
  return { ...user, headers };
}

/** Everyone a rule can be about, signed in once per test file. */
export async function createCast(app: App, db: Database) {
  const org = await createOrganization(db);
  const otherOrg = await createOrganization(db);
  const team = await createTeam(db, org.id);
  const otherTeam = await createTeam(db, org.id);
  const cast = {
    org,
    otherOrg,
    team,
    otherTeam,
    owner: await createPerson(app, db, org.id),
    member: await createPerson(app, db, org.id),
    stranger: await createPerson(app, db, org.id),
    teamMember: await createPerson(app, db, org.id),
    teamEditor: await createPerson(app, db, org.id),
    admin: await createPerson(app, db, org.id, 'admin'),
    outsider: await createPerson(app, db, otherOrg.id, 'admin'),
  };
  await addTeamMember(db, team, cast.teamMember.id);
  await addTeamMember(db, team, cast.teamEditor.id, 'editor');
  await addTeamMember(db, team, cast.owner.id);
  return cast;
}
export type Cast = Awaited<ReturnType<typeof createCast>>;
export type Role = Exclude<keyof Cast, 'org' | 'otherOrg' | 'team' | 'otherTeam'>;

/**
 * Fresh collections around the owner: their own, one shared with `member` (with a
 * sub-collection), someone else's, another organization's, team and organization ones.
 */
export async function createSpaces(db: Database, cast: Cast) {
  const own = await createCollection(db, { user: cast.owner });
  const shared = await createCollection(db, { user: cast.owner });
  const sharedSub = await createCollection(db, { user: cast.owner }, { parentId: shared.id });
  const share = await createShare(db, cast.owner, shared.id, [cast.member.id]);
  return {
    own,
    root: { id: cast.owner.rootId, organizationId: cast.org.id },
    shared,
    sharedSub,
    share,
    strangers: await createCollection(db, { user: cast.stranger }),
    strangerRoot: { id: cast.stranger.rootId, organizationId: cast.org.id },
    outsiders: await createCollection(db, { user: cast.outsider }),
    team: await createCollection(db, { team: cast.team }),
    otherTeam: await createCollection(db, { team: cast.otherTeam }),
    organization: await createCollection(db, { organizationId: cast.org.id }),
    otherOrganization: await createCollection(db, { organizationId: cast.otherOrg.id }),
    unknown: { id: newId(), organizationId: cast.org.id },
  };
}
export type Spaces = Awaited<ReturnType<typeof createSpaces>>;
export type Place = keyof Omit<Spaces, 'share'>;

/** Every row these calls may write, to assert that a refused request changed nothing. */
export async function snapshot(db: Database) {
  return {
    collections: await db.select().from(collections).orderBy(asc(collections.id)),
    links: await db.select().from(links).orderBy(asc(links.id)),
    favorites: await db.select().from(favorites).orderBy(asc(favorites.id)),
    shares: await db.select().from(collectionShares).orderBy(asc(collectionShares.id)),
    members: await db
      .select()
      .from(shareMembers)
      .orderBy(asc(shareMembers.shareId), asc(shareMembers.userId)),
    suggestions: await db.select().from(linkSuggestions).orderBy(asc(linkSuggestions.id)),
  };
}

export async function collectionRow(db: Database, id: string) {
  const [row] = await db.select().from(collections).where(eq(collections.id, id));
  return row;
}

export async function linkRow(db: Database, id: string) {
  const [row] = await db.select().from(links).where(eq(links.id, id));
  return row;
}

/** Addresses that must never be stored, whatever the case or hidden characters. */
export const HOSTILE_URLS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\u200bscript:alert(1)',
  '\u200bjavascript:alert(1)',
  'javascript\u00ad:alert(1)',
  '\ufeffjavascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD4=',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://example.com/file',
  'https://exa mple.com',
  'https://',
  '   ',
];

/** Sends a request as someone, or anonymously. */
export function call(
  app: App,
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  who?: { headers: Record<string, string> },
  payload?: unknown,
) {
  return app.inject({
    method,
    url: `/api/consumer${url}`,
    headers: who?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/**
 * Sends a request that must be refused: asserts its status and a message, and that no row a
 * collection or link call can touch has changed. Returns the answer.
 */
export async function expectRefused(
  db: Database,
  send: () => Promise<LightMyRequestResponse>,
  status: number,
) {
  const before = await snapshot(db);
  const response = await send();
  expect(response.statusCode).toBe(status);
  expect(response.json()).toMatchObject({ message: expect.any(String) });
  expect(await snapshot(db)).toEqual(before);
  return response;
}
