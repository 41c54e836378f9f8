import { sql } from 'drizzle-orm';
import { selectRows, type DatabaseHandle, type Executor } from '../client.ts';
import {
  collections,
  collectionShares,
  favorites,
  links,
  organizations,
  shareMembers,
  teamMemberships,
  teams,
  users,
} from '../schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { normalizeUrl } from '../../lib/urls.ts';
import { hashPassword, type Argon2Params } from '../../lib/passwords.ts';
import {
  colleagues,
  COLLEAGUE_SHARE,
  DANA_SHARE,
  DEMO_FAVORITES,
  DEMO_LINK_HEALTH,
  DEMO_TEAMS,
  ORGANIZATION_COLLECTIONS,
  ORGANIZATION_NAME,
  PERSONAL_COLLECTIONS,
  PERSONAL_LINKS,
  TEAMS,
  type DemoCollection,
  type DemoLink,
} from './demo-data.ts';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'signpost-demo';
export const DEMO_NAME = 'Dana Demo';
export const DEMO_COLLEAGUES = 120;

type UserRow = typeof users.$inferInsert;
type TeamRow = typeof teams.$inferInsert;
type MembershipRow = typeof teamMemberships.$inferInsert;
type CollectionRow = typeof collections.$inferInsert;
type LinkRow = typeof links.$inferInsert;
type FavoriteRow = typeof favorites.$inferInsert;
type ShareRow = typeof collectionShares.$inferInsert;
type ShareMemberRow = typeof shareMembers.$inferInsert;

type Owner =
  | { ownerType: 'user'; ownerUserId: string }
  | { ownerType: 'team'; ownerTeamId: string }
  | { ownerType: 'organization' };

/** Collects every row of the demo in memory, so that each table takes one INSERT. */
class DemoBuilder {
  readonly users: UserRow[] = [];
  readonly teams: TeamRow[] = [];
  readonly memberships: MembershipRow[] = [];
  readonly collections: CollectionRow[] = [];
  readonly links: LinkRow[] = [];
  readonly favorites: FavoriteRow[] = [];
  readonly shares: ShareRow[] = [];
  readonly shareMembers: ShareMemberRow[] = [];
  /** Links by name, for favorites. */
  readonly linksByName = new Map<string, LinkRow>();
  // Links, favorites and sub-collections share one order per collection; top-level
  // collections are ordered per owner.
  private readonly positions = new Map<string, number>();

  constructor(readonly organizationId: string) {}

  private nextPosition(key: string): number {
    const position = this.positions.get(key) ?? 0;
    this.positions.set(key, position + 1);
    return position;
  }

  person(name: string, email: string, passwordHash: string, role: 'member' | 'admin') {
    const id = newId();
    this.users.push({ id, organizationId: this.organizationId, name, email, passwordHash, role });
    const rootId = newId();
    this.collections.push({
      id: rootId,
      organizationId: this.organizationId,
      ownerType: 'user',
      ownerUserId: id,
      isRoot: true,
      name: 'My Space',
      position: 0,
      createdBy: id,
    });
    return { id, rootId };
  }

  /** A collection with its links and sub-collections; returns its id. */
  collection(
    owner: Owner,
    spec: DemoCollection,
    parentId: string | null,
    createdBy: string | null,
    linksBy: string | null = createdBy,
  ): string {
    const id = newId();
    const ownerKey =
      'ownerUserId' in owner
        ? owner.ownerUserId
        : 'ownerTeamId' in owner
          ? owner.ownerTeamId
          : 'org';
    this.collections.push({
      id,
      organizationId: this.organizationId,
      ownerType: owner.ownerType,
      ownerUserId: 'ownerUserId' in owner ? owner.ownerUserId : null,
      ownerTeamId: 'ownerTeamId' in owner ? owner.ownerTeamId : null,
      parentId,
      name: spec.name,
      description: spec.description,
      color: spec.color,
      position: this.nextPosition(parentId ?? `top:${ownerKey}`),
      createdBy,
    });
    for (const item of spec.links) this.link(id, item, linksBy);
    for (const child of spec.children ?? []) this.collection(owner, child, id, createdBy, linksBy);
    return id;
  }

  link(collectionId: string, spec: DemoLink, createdBy: string | null) {
    const row: LinkRow = {
      id: newId(),
      organizationId: this.organizationId,
      collectionId,
      name: spec.name,
      description: spec.description,
      // Stored in the parsed form, as every address a person saves (decision 0049).
      url: normalizeUrl(spec.url),
      // Found on the site by the server, and kept by it (decision 0068).
      icon: null,
      appName: spec.appName,
      position: this.nextPosition(collectionId),
      createdBy,
    };
    this.links.push(row);
    if (!this.linksByName.has(spec.name)) this.linksByName.set(spec.name, row);
  }

  favorite(userId: string, collectionId: string, linkName: string) {
    const target = this.linksByName.get(linkName);
    if (!target) throw new Error(`demo data: no link named ${linkName}`);
    this.favorites.push({
      id: newId(),
      organizationId: this.organizationId,
      userId,
      linkId: target.id,
      collectionId,
      position: this.nextPosition(collectionId),
    });
  }

  /** Shares a collection; the owner is a member of their own share. */
  share(collectionId: string, ownerId: string, memberIds: string[]) {
    const id = newId();
    this.shares.push({ id, organizationId: this.organizationId, collectionId, createdBy: ownerId });
    for (const userId of [ownerId, ...memberIds]) {
      this.shareMembers.push({ shareId: id, userId, organizationId: this.organizationId });
    }
  }
}

/**
 * Fills an empty database with the demo organization, Northwind Labs, in one transaction;
 * returns false (and changes nothing) when the database already has an organization.
 */
export async function seedDemoIfEmpty(
  handle: DatabaseHandle,
  argon2: Argon2Params,
): Promise<boolean> {
  const existing = await selectRows(handle.db, sql`SELECT 1 FROM organizations LIMIT 1`);
  if (existing.length > 0) return false;

  // Demo data only: every demo person has the same password, so one hash (argon2id costs
  // tens of milliseconds) serves them all. Real accounts each get their own salted hash.
  const passwordHash = await hashPassword(DEMO_PASSWORD, argon2);

  const organizationId = newId();
  const demo = new DemoBuilder(organizationId);
  const dana = demo.person(DEMO_NAME, DEMO_EMAIL, passwordHash, 'admin');
  const people = colleagues(DEMO_COLLEAGUES).map((p, i) =>
    demo.person(p.name, p.email, passwordHash, i % 40 === 0 ? 'admin' : 'member'),
  );
  const colleague = (i: number) => {
    const person = people[i];
    if (!person) throw new Error(`demo data: no colleague ${i}`);
    return person;
  };

  // Teams: colleagues spread round-robin, a few in two teams; the first member of each
  // team is its buddy and an editor.
  TEAMS.forEach((spec, t) => {
    const teamId = newId();
    const members = people.filter((_, i) => i % TEAMS.length === t || i % 17 === t);
    const buddy = members[0] ?? null;
    demo.teams.push({ id: teamId, organizationId, name: spec.name, buddyId: buddy?.id ?? null });
    members.forEach((m, i) =>
      demo.memberships.push({
        teamId,
        userId: m.id,
        organizationId,
        role: i === 0 ? 'editor' : 'member',
      }),
    );
    if (DEMO_TEAMS.includes(spec.name)) {
      demo.memberships.push({ teamId, userId: dana.id, organizationId, role: 'member' });
    }
    for (const c of spec.collections) {
      demo.collection({ ownerType: 'team', ownerTeamId: teamId }, c, null, buddy?.id ?? null);
    }
  });
  for (const c of ORGANIZATION_COLLECTIONS) {
    demo.collection({ ownerType: 'organization' }, c, null, dana.id);
  }

  // Dana's My Space: own links, favorites, nested collections, a share of her own.
  const danaOwner = { ownerType: 'user', ownerUserId: dana.id } as const;
  for (const item of PERSONAL_LINKS) demo.link(dana.rootId, item, dana.id);
  for (const name of DEMO_FAVORITES) demo.favorite(dana.id, dana.rootId, name);
  for (const c of PERSONAL_COLLECTIONS) demo.collection(danaOwner, c, dana.rootId, dana.id);
  const launch = demo.collection(danaOwner, DANA_SHARE, dana.rootId, dana.id);
  demo.share(launch, dana.id, [colleague(0).id, colleague(1).id]);

  // A colleague's collection shared with Dana and one more colleague; the owner's links.
  const owner = colleague(6);
  const designSystem = demo.collection(
    { ownerType: 'user', ownerUserId: owner.id },
    COLLEAGUE_SHARE,
    owner.rootId,
    owner.id,
  );
  demo.share(designSystem, owner.id, [dana.id, colleague(11).id]);

  // Colleagues with links that need them (DEMO_LINK_HEALTH).
  const emails = colleagues(DEMO_COLLEAGUES).map((p) => p.email);
  for (const { email, links: own } of DEMO_LINK_HEALTH.colleagues) {
    const checked = colleague(emails.indexOf(email));
    for (const item of own) demo.link(checked.rootId, item, checked.id);
  }

  return handle.db.transaction(async (tx) => {
    // Two servers starting together on one database must not both seed it.
    await tx.execute(sql`LOCK TABLE organizations IN EXCLUSIVE MODE`);
    const raced = await selectRows(tx, sql`SELECT 1 FROM organizations LIMIT 1`);
    if (raced.length > 0) return false;
    await tx.insert(organizations).values({ id: organizationId, name: ORGANIZATION_NAME });
    await tx.insert(users).values(demo.users);
    await tx.insert(teams).values(demo.teams);
    await tx.insert(teamMemberships).values(demo.memberships);
    await tx.insert(collections).values(demo.collections);
    await tx.insert(links).values(demo.links);
    await tx.insert(favorites).values(demo.favorites);
    await tx.insert(collectionShares).values(demo.shares);
    await tx.insert(shareMembers).values(demo.shareMembers);
    await recordDemoChecks(tx, demo);
    return true;
  });
}

/**
 * The demo's link checks (DEMO_LINK_HEALTH): states as a round would have written them, due
 * again after a day, when the server's own checks take over.
 */
async function recordDemoChecks(tx: Executor, demo: DemoBuilder) {
  const id = (name: string) => {
    const row = demo.links.find((l) => l.name === name);
    if (!row) throw new Error(`demo data: no link ${name}`);
    return row.id;
  };
  const { broken, moved, colleagueBroken } = DEMO_LINK_HEALTH;
  for (const { name, status, days } of [...broken, ...colleagueBroken]) {
    await tx.execute(sql`
      UPDATE link_checks SET state = 'broken', failures = 2, status = ${status},
        failure_kind = 'http', failure = ${`the site answers ${status}`},
        checked_at = now() - interval '2 hours',
        state_changed_at = now() - make_interval(days => ${days}),
        due_at = now() + interval '1 day'
      WHERE link_id = ${id(name)}`);
  }
  await tx.execute(sql`
    UPDATE link_checks SET state = 'moved', failures = 0, status = 200, moved_to = ${moved.to},
      checked_at = now() - interval '2 hours',
      state_changed_at = now() - make_interval(days => ${moved.days}),
      due_at = now() + interval '1 day'
    WHERE link_id = ${id(moved.name)}`);
}
