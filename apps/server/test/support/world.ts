// The people and places of every authorization test: the permission table
// (test/permissions.test.ts) and the collection and link route tests build them here.
//
// The roles of docs/security.md, by the names the tests use:
//   owner       the owner of the personal collections (also a plain member of the team)
//   member      a member of the owner's share (shared with the other team too, which has
//               nobody of the cast)
//   colleague   another person of the organization, in no share and no team
//   teamMember  a member of the team
//   teamEditor  an editor of the team
//   orgAdmin    an admin of the organization
//   outsider    a person of another organization (an admin there, whose rights stop at it)
//   anonymous   no one signed in (no entry in the cast)
import type { App } from '../../src/app.ts';
import type { Database } from '../../src/db/client.ts';
import { newId } from '../../src/lib/ids.ts';
import {
  addTeamMember,
  createCollection,
  createFavorite,
  createLink,
  createOrganization,
  createShare,
  createTeam,
  createUser,
  shareWithTeam,
  signIn,
  type TestUser,
} from '../factories.ts';

/** Everyone signed in of the roles, in the order of docs/security.md. */
export const ROLES = [
  'owner',
  'member',
  'colleague',
  'teamMember',
  'teamEditor',
  'orgAdmin',
  'outsider',
] as const;
export type Role = (typeof ROLES)[number];

/** Two fresh organizations, two teams of the first, and one person of each role. */
export async function createCast(db: Database) {
  const org = await createOrganization(db);
  const otherOrg = await createOrganization(db);
  const team = await createTeam(db, org.id);
  const otherTeam = await createTeam(db, org.id);
  const people = {
    owner: await createUser(db, org.id),
    member: await createUser(db, org.id),
    colleague: await createUser(db, org.id),
    teamMember: await createUser(db, org.id),
    teamEditor: await createUser(db, org.id),
    orgAdmin: await createUser(db, org.id, { role: 'admin' }),
    outsider: await createUser(db, otherOrg.id, { role: 'admin' }),
  } satisfies Record<Role, TestUser>;
  await addTeamMember(db, team, people.teamMember.id);
  await addTeamMember(db, team, people.teamEditor.id, 'editor');
  await addTeamMember(db, team, people.owner.id);
  return { org, otherOrg, team, otherTeam, ...people };
}
export type Cast = Awaited<ReturnType<typeof createCast>>;

export type Person = TestUser & { headers: { authorization: string } };
export type SignedInCast = Omit<Cast, Role> & Record<Role, Person>;

/** A person of the organization, signed in. */
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

/** Signs everyone of a cast in (once per test file: each sign-in costs a password hash). */
export async function signInCast(app: App, cast: Cast): Promise<SignedInCast> {
  const signedIn = { ...cast } as SignedInCast;
  for (const role of ROLES) {
    signedIn[role] = { ...cast[role], headers: (await signIn(app, cast[role])).headers };
  }
  return signedIn;
}

/** A fresh cast, everyone signed in: the module tests make one per file. */
export async function createSignedInCast(app: App, db: Database) {
  return signInCast(app, await createCast(db));
}

/**
 * Fresh collections around the owner: their own, one shared with `member` (with a
 * sub-collection), a colleague's, an outsider's, team and organization ones.
 */
export async function createSpaces(db: Database, cast: Cast) {
  const own = await createCollection(db, { user: cast.owner });
  const shared = await createCollection(db, { user: cast.owner });
  const sharedSub = await createCollection(db, { user: cast.owner }, { parentId: shared.id });
  const share = await createShare(db, cast.owner, shared.id, [cast.member.id]);
  // Shared with the other team too, which nobody of the cast is in (decision 0086).
  await shareWithTeam(db, share, cast.otherTeam, cast.owner.id);
  const team = await createCollection(db, { team: cast.team });
  return {
    own,
    root: { id: cast.owner.rootId, organizationId: cast.org.id },
    shared,
    sharedSub,
    share,
    colleagues: await createCollection(db, { user: cast.colleague }),
    colleagueRoot: { id: cast.colleague.rootId, organizationId: cast.org.id },
    outsiders: await createCollection(db, { user: cast.outsider }),
    team,
    teamSub: await createCollection(db, { team: cast.team }, { parentId: team.id }),
    otherTeam: await createCollection(db, { team: cast.otherTeam }),
    organization: await createCollection(db, { organizationId: cast.org.id }),
    otherOrganization: await createCollection(db, { organizationId: cast.otherOrg.id }),
    unknown: { id: newId(), organizationId: cast.org.id },
  };
}
export type Spaces = Awaited<ReturnType<typeof createSpaces>>;
export type Place = keyof Omit<Spaces, 'share'>;

/**
 * Fresh collections (see createSpaces), one link of each kind in them, and a favorite of
 * the owner (the organization link, in their My Space).
 */
export async function createWorld(db: Database, cast: Cast) {
  const spaces = await createSpaces(db, cast);
  const links = {
    own: await createLink(db, spaces.own, { createdBy: cast.owner.id }),
    inRoot: await createLink(db, spaces.root, { createdBy: cast.owner.id }),
    /** In the owner's collection, added by nobody known (say, an imported link). */
    ownUnattributed: await createLink(db, spaces.own, { createdBy: null }),
    ownerInShare: await createLink(db, spaces.shared, { createdBy: cast.owner.id }),
    memberInShare: await createLink(db, spaces.shared, { createdBy: cast.member.id }),
    memberInSharedSub: await createLink(db, spaces.sharedSub, { createdBy: cast.member.id }),
    /** Added to the share by someone who is no longer a member of it. */
    formerMemberInShare: await createLink(db, spaces.shared, { createdBy: cast.colleague.id }),
    colleagues: await createLink(db, spaces.colleagues, { createdBy: cast.colleague.id }),
    outsiders: await createLink(db, spaces.outsiders, { createdBy: cast.outsider.id }),
    team: await createLink(db, spaces.team, { createdBy: cast.teamEditor.id }),
    otherTeam: await createLink(db, spaces.otherTeam),
    organization: await createLink(db, spaces.organization, { createdBy: cast.orgAdmin.id }),
    otherOrganization: await createLink(db, spaces.otherOrganization),
    unknown: { id: newId(), collectionId: spaces.unknown.id },
  };
  const favorite = await createFavorite(db, cast.owner, links.organization.id, cast.owner.rootId);
  return { spaces, links, favorite };
}
export type World = Awaited<ReturnType<typeof createWorld>>;
export type LinkKind = keyof World['links'];
