// The people of the collection and link route tests, in every relation to a set of
// collections.
import type { App } from '../../src/app.ts';
import type { Database } from '../../src/db/client.ts';
import { newId } from '../../src/lib/ids.ts';
import {
  addTeamMember,
  createCollection,
  createOrganization,
  createShare,
  createTeam,
  createUser,
  signIn,
  type TestUser,
} from '../factories.ts';

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
