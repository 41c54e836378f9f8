// The permission table of docs/security.md: every consumer call × every role, allowed and
// denied cells both asserted. Each cell runs on a fresh world; a denied cell must change nothing.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../src/db/client.ts';
import { collections, links, linkSuggestions } from '../../src/db/schema/index.ts';
import { createTestApp } from '../app.ts';
import { collectionRow, linkRow } from '../support/rows.ts';
import { signIn, type TestUser } from '../factories.ts';
import { callerOf } from '../support/callers.ts';
import {
  createCast,
  createWorld,
  ROLES as PEOPLE,
  type Cast,
  type World,
} from '../support/world.ts';

const { app, db } = await createTestApp();

const ROLES = [...PEOPLE, 'anonymous'] as const;
type Role = (typeof ROLES)[number];

/** The cast and everything around it, fresh for each cell. */
type Cell = World & { cast: Cast };

/** A digest of every row a consumer call can change, in both organizations of the cast. */
async function fingerprint({ cast }: Cell) {
  const orgs = sql`(${cast.org.id}, ${cast.otherOrg.id})`;
  const part = (table: string) =>
    sql`coalesce((SELECT string_agg(t::text, '|' ORDER BY t::text) FROM ${sql.identifier(table)} t WHERE t.organization_id IN ${orgs}), '')`;
  const rows = await selectRows<{ digest: string }>(
    db,
    sql`SELECT md5(${part('collections')} || ${part('links')} || ${part('favorites')} ||
                   ${part('collection_shares')} || ${part('share_members')} ||
                   ${part('share_teams')} ||
                   ${part('link_suggestions')}) AS digest`,
  );
  return rows[0]?.digest;
}

interface Call {
  name: string;
  request: (
    w: Cell,
    actor: TestUser | null,
  ) => { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: object };
  /** Status per role; a write whose status is 204 must change rows, any other must not. */
  expect: Record<Role, number>;
  read?: boolean;
  /** For an allowed (204) cell: the change the call must have made, beyond "rows changed". */
  effect?: (w: Cell, actor: TestUser) => Promise<void>;
  /** For a 404 cell: the message, naming what was not found. */
  notFound?: (w: Cell) => string;
}

/** The error code of each refusal status. */
const CODES: Record<number, string> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
};

const childrenOf = (parentId: string) =>
  db.select().from(collections).where(eq(collections.parentId, parentId));
const linksIn = (collectionId: string) =>
  db.select().from(links).where(eq(links.collectionId, collectionId));
const suggestionsFor = (collectionId: string) =>
  db.select().from(linkSuggestions).where(eq(linkSuggestions.collectionId, collectionId));

/** The items of a collection, links and sub-collections, as `type:id` in their order. */
async function itemsOf(collectionId: string) {
  const items = [
    ...(await linksIn(collectionId)).map((row) => ({ key: `link:${row.id}`, at: row.position })),
    ...(await childrenOf(collectionId)).map((row) => ({
      key: `collection:${row.id}`,
      at: row.position,
    })),
  ];
  return items.sort((a, b) => a.at - b.at).map((item) => item.key);
}

const shareNotFound = (w: Cell) => `Share ${w.spaces.share.id} was not found`;
/** Everyone who sees a share, by id. */
async function shareMemberIds(shareId: string) {
  const rows = await selectRows<{ userId: string }>(
    db,
    sql`SELECT user_id AS "userId" FROM share_members WHERE share_id = ${shareId}`,
  );
  return rows.map((row) => row.userId).sort();
}

const link = { name: 'A link', url: 'https://example.com/new' };
const c = '/api/consumer';
// Shorthands for the common rows of the table.
const onlyOwner = (owner: number, member: number) => ({
  owner,
  member,
  colleague: 404,
  teamMember: 404,
  teamEditor: 404,
  orgAdmin: 404,
  outsider: 404,
  anonymous: 401,
});
// The owner is a plain member of the team too (see support/world.ts).
const teamOnly = (status: number) => ({
  owner: status,
  member: 404,
  colleague: 404,
  teamMember: status,
  teamEditor: status,
  orgAdmin: 404,
  outsider: 404,
  anonymous: 401,
});
const wholeOrg = (status: number) => ({
  owner: status,
  member: status,
  colleague: status,
  teamMember: status,
  teamEditor: status,
  orgAdmin: status,
  outsider: 404,
  anonymous: 401,
});
const everyone = (status: number) => ({ ...wholeOrg(status), outsider: status });
// Team content is changed in place by the team's editors and the organization's admins
// (decision 0008); its plain members (the owner among them) see it read-only.
const teamRun = (allowed: number) => ({ ...teamOnly(403), teamEditor: allowed, orgAdmin: allowed });
const orgRun = (allowed: number) => ({ ...wholeOrg(403), orgAdmin: allowed });
// A team the caller is not in: unknown to all but an admin, who runs every team.
const otherTeamRun = (allowed: number) => ({ ...teamOnly(404), orgAdmin: allowed });

const CALLS: Call[] = [
  {
    name: 'GET menu',
    read: true,
    request: () => ({ method: 'GET', url: `${c}/menu` }),
    expect: everyone(200),
  },
  {
    name: 'GET peers',
    read: true,
    request: () => ({ method: 'GET', url: `${c}/peers?limit=20` }),
    expect: everyone(200),
  },
  {
    name: 'POST collections into a personal collection',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/`,
      payload: { name: 'Nested', parentId: w.spaces.shared.id },
    }),
    expect: onlyOwner(204, 403),
    effect: async (w, actor) => {
      expect(await childrenOf(w.spaces.shared.id)).toContainEqual(
        expect.objectContaining({ name: 'Nested', ownerUserId: actor.id }),
      );
    },
  },
  {
    name: 'POST collections into a team collection',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/`,
      payload: { name: 'Nested', parentId: w.spaces.team.id },
    }),
    expect: teamRun(204),
    effect: async (w, actor) => {
      expect(await childrenOf(w.spaces.team.id)).toContainEqual(
        expect.objectContaining({
          name: 'Nested',
          ownerType: 'team',
          ownerTeamId: w.cast.team.id,
          ownerUserId: null,
          createdBy: actor.id,
        }),
      );
    },
  },
  {
    name: 'POST collections into a collection of a team one is not in',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/`,
      payload: { name: 'Nested', parentId: w.spaces.otherTeam.id },
    }),
    expect: otherTeamRun(204),
  },
  {
    name: 'POST a top-level collection to a team space',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/`,
      payload: { name: 'Top', spaceId: w.cast.team.id },
    }),
    expect: teamRun(204),
    effect: async (w) => {
      const rows = await db
        .select()
        .from(collections)
        .where(and(eq(collections.name, 'Top'), eq(collections.organizationId, w.cast.org.id)));
      expect(rows).toMatchObject([
        { ownerType: 'team', ownerTeamId: w.cast.team.id, parentId: null },
      ]);
    },
  },
  {
    name: 'POST a top-level collection to the organization space',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/`,
      payload: { name: 'Top', spaceId: w.cast.org.id },
    }),
    expect: orgRun(204),
    effect: async (w) => {
      const rows = await db
        .select()
        .from(collections)
        .where(and(eq(collections.name, 'Top'), eq(collections.organizationId, w.cast.org.id)));
      expect(rows).toMatchObject([
        { ownerType: 'organization', organizationId: w.cast.org.id, parentId: null },
      ]);
    },
  },
  {
    name: 'POST collections into an organization collection',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/`,
      payload: { name: 'Nested', parentId: w.spaces.organization.id },
    }),
    expect: orgRun(204),
  },
  {
    name: 'PATCH a personal collection',
    request: (w) => ({
      method: 'PATCH',
      url: `${c}/collections/${w.spaces.shared.id}`,
      payload: { name: 'Renamed' },
    }),
    expect: onlyOwner(204, 403),
    effect: async (w) => {
      expect(await collectionRow(db, w.spaces.shared.id)).toMatchObject({ name: 'Renamed' });
    },
  },
  {
    name: 'PATCH a team collection',
    request: (w) => ({
      method: 'PATCH',
      url: `${c}/collections/${w.spaces.team.id}`,
      payload: { name: 'Renamed' },
    }),
    expect: teamRun(204),
    effect: async (w) => {
      expect(await collectionRow(db, w.spaces.team.id)).toMatchObject({ name: 'Renamed' });
    },
  },
  {
    name: 'PATCH a team collection into a collection of another team',
    request: (w) => ({
      method: 'PATCH',
      url: `${c}/collections/${w.spaces.team.id}`,
      payload: { parentId: w.spaces.otherTeam.id },
    }),
    // Runners of both (the admin): content stays in its space.
    expect: { ...teamRun(404), owner: 403, teamMember: 403, teamEditor: 404, orgAdmin: 409 },
  },
  {
    name: 'DELETE a personal collection',
    request: (w) => ({ method: 'DELETE', url: `${c}/collections/${w.spaces.shared.id}/` }),
    expect: onlyOwner(204, 403),
    effect: async (w) => {
      expect(await collectionRow(db, w.spaces.shared.id)).toBeUndefined();
    },
  },
  {
    name: 'DELETE an organization collection',
    request: (w) => ({ method: 'DELETE', url: `${c}/collections/${w.spaces.organization.id}/` }),
    expect: orgRun(204),
    effect: async (w) => {
      expect(await collectionRow(db, w.spaces.organization.id)).toBeUndefined();
    },
  },
  {
    name: 'DELETE a team collection',
    request: (w) => ({ method: 'DELETE', url: `${c}/collections/${w.spaces.team.id}/` }),
    expect: teamRun(204),
    effect: async (w) => {
      expect(await collectionRow(db, w.spaces.team.id)).toBeUndefined();
    },
  },
  {
    name: 'PUT the order of a team collection',
    request: (w) => ({
      method: 'PUT',
      url: `${c}/collections/${w.spaces.team.id}/order`,
      payload: {
        items: [
          { type: 'link', id: w.links.team.id },
          { type: 'collection', id: w.spaces.teamSub.id },
        ],
      },
    }),
    expect: teamRun(204),
    effect: async (w) => {
      expect(await itemsOf(w.spaces.team.id)).toEqual([
        `link:${w.links.team.id}`,
        `collection:${w.spaces.teamSub.id}`,
      ]);
    },
  },
  {
    name: 'PUT the order of a personal collection',
    request: (w) => ({
      method: 'PUT',
      url: `${c}/collections/${w.spaces.shared.id}/order`,
      // Every item of the shared collection, the other way round from how it was filled.
      payload: {
        items: [
          { type: 'link', id: w.links.formerMemberInShare.id },
          { type: 'link', id: w.links.memberInShare.id },
          { type: 'link', id: w.links.ownerInShare.id },
          { type: 'collection', id: w.spaces.sharedSub.id },
        ],
      },
    }),
    expect: onlyOwner(204, 403),
    effect: async (w) => {
      expect(await itemsOf(w.spaces.shared.id)).toEqual([
        `link:${w.links.formerMemberInShare.id}`,
        `link:${w.links.memberInShare.id}`,
        `link:${w.links.ownerInShare.id}`,
        `collection:${w.spaces.sharedSub.id}`,
      ]);
    },
  },
  {
    name: 'POST a link to a shared personal collection',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/${w.spaces.shared.id}/links`,
      payload: link,
    }),
    expect: onlyOwner(204, 204),
    effect: async (w, actor) => {
      expect(await linksIn(w.spaces.shared.id)).toContainEqual(
        expect.objectContaining({ name: link.name, createdBy: actor.id }),
      );
    },
  },
  {
    name: 'POST a link to a team collection',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/${w.spaces.team.id}/links`,
      payload: link,
    }),
    expect: teamRun(204),
    effect: async (w, actor) => {
      expect(await linksIn(w.spaces.team.id)).toContainEqual(
        expect.objectContaining({ name: link.name, createdBy: actor.id }),
      );
    },
  },
  {
    name: 'POST a link to an organization collection',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/${w.spaces.organization.id}/links`,
      payload: link,
    }),
    expect: orgRun(204),
  },
  {
    name: 'POST a link to a collection of a team one is not in',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/${w.spaces.otherTeam.id}/links`,
      payload: link,
    }),
    expect: otherTeamRun(204),
  },
  {
    name: "PATCH the owner's link in a share",
    request: (w) => ({
      method: 'PATCH',
      url: `${c}/links/${w.links.ownerInShare.id}`,
      payload: { name: 'X' },
    }),
    expect: onlyOwner(204, 403),
    effect: async (w) => {
      expect(await linkRow(db, w.links.ownerInShare.id)).toMatchObject({ name: 'X' });
    },
  },
  {
    name: "PATCH the member's link in a share",
    request: (w) => ({
      method: 'PATCH',
      url: `${c}/links/${w.links.memberInShare.id}`,
      payload: { name: 'X' },
    }),
    expect: onlyOwner(204, 204),
    effect: async (w) => {
      expect(await linkRow(db, w.links.memberInShare.id)).toMatchObject({ name: 'X' });
    },
  },
  {
    name: 'PATCH a team link',
    request: (w) => ({
      method: 'PATCH',
      url: `${c}/links/${w.links.team.id}`,
      payload: { name: 'X' },
    }),
    expect: teamRun(204),
    effect: async (w) => {
      expect(await linkRow(db, w.links.team.id)).toMatchObject({ name: 'X' });
    },
  },
  {
    name: 'PUT a team link into one’s own My Space',
    request: (w, actor) => ({
      method: 'PUT',
      url: `${c}/links/${w.links.team.id}/collection`,
      payload: { collectionId: actor?.rootId ?? w.cast.owner.rootId },
    }),
    // Team content never leaves its space (409 for those who may change it).
    expect: teamRun(409),
  },
  {
    name: 'PUT a team link into another collection of the team',
    request: (w) => ({
      method: 'PUT',
      url: `${c}/links/${w.links.team.id}/collection`,
      payload: { collectionId: w.spaces.teamSub.id },
    }),
    expect: teamRun(204),
    effect: async (w) => {
      expect(await linkRow(db, w.links.team.id)).toMatchObject({
        collectionId: w.spaces.teamSub.id,
      });
    },
  },
  {
    name: 'POST several team items to another collection of the team (move)',
    request: (w) => ({
      method: 'POST',
      url: `${c}/items/move`,
      payload: {
        items: [{ type: 'link', id: w.links.team.id }],
        collectionId: w.spaces.teamSub.id,
      },
    }),
    expect: teamRun(204),
    effect: async (w) => {
      expect(await linkRow(db, w.links.team.id)).toMatchObject({
        collectionId: w.spaces.teamSub.id,
      });
    },
  },
  {
    name: 'POST several team items into one’s own My Space (move)',
    request: (w, actor) => ({
      method: 'POST',
      url: `${c}/items/move`,
      payload: {
        items: [{ type: 'link', id: w.links.team.id }],
        collectionId: actor?.rootId ?? w.cast.owner.rootId,
      },
    }),
    // Team content never leaves its space (409 for those who may change it).
    expect: teamRun(409),
  },
  {
    name: 'POST several team items to delete them together',
    request: (w) => ({
      method: 'POST',
      url: `${c}/items/delete`,
      payload: {
        items: [
          { type: 'link', id: w.links.team.id },
          { type: 'collection', id: w.spaces.teamSub.id },
        ],
      },
    }),
    expect: teamRun(204),
    effect: async (w) => {
      expect(await linkRow(db, w.links.team.id)).toBeUndefined();
      expect(await collectionRow(db, w.spaces.teamSub.id)).toBeUndefined();
    },
  },
  {
    name: 'POST several organization items to delete them together',
    request: (w) => ({
      method: 'POST',
      url: `${c}/items/delete`,
      payload: { items: [{ type: 'link', id: w.links.organization.id }] },
    }),
    expect: orgRun(204),
    effect: async (w) => {
      expect(await linkRow(db, w.links.organization.id)).toBeUndefined();
    },
  },
  {
    name: "DELETE the owner's link in a share",
    request: (w) => ({ method: 'DELETE', url: `${c}/links/${w.links.ownerInShare.id}` }),
    expect: onlyOwner(204, 403),
    effect: async (w) => {
      expect(await linkRow(db, w.links.ownerInShare.id)).toBeUndefined();
    },
  },
  {
    name: 'DELETE an organization link',
    request: (w) => ({ method: 'DELETE', url: `${c}/links/${w.links.organization.id}` }),
    expect: orgRun(204),
    effect: async (w) => {
      expect(await linkRow(db, w.links.organization.id)).toBeUndefined();
    },
  },
  {
    name: "PUT the owner's link into the owner's other collection",
    request: (w) => ({
      method: 'PUT',
      url: `${c}/links/${w.links.ownerInShare.id}/collection`,
      payload: { collectionId: w.spaces.own.id },
    }),
    expect: onlyOwner(204, 403),
    effect: async (w) => {
      expect(await linkRow(db, w.links.ownerInShare.id)).toMatchObject({
        collectionId: w.spaces.own.id,
      });
    },
  },
  {
    // Two ids, each authorized on its own: the member may move this link, not into there.
    name: "PUT the member's link into the owner's unshared collection",
    request: (w) => ({
      method: 'PUT',
      url: `${c}/links/${w.links.memberInShare.id}/collection`,
      payload: { collectionId: w.spaces.own.id },
    }),
    expect: onlyOwner(204, 404),
    effect: async (w) => {
      expect(await linkRow(db, w.links.memberInShare.id)).toMatchObject({
        collectionId: w.spaces.own.id,
      });
    },
  },
  {
    name: 'POST a suggestion to a team collection',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/${w.spaces.team.id}/suggestions`,
      payload: link,
    }),
    // An admin runs the team without being in it: favorites and suggestions are for members.
    expect: { ...teamOnly(204), orgAdmin: 403 },
    effect: async (w, actor) => {
      expect(await suggestionsFor(w.spaces.team.id)).toMatchObject([{ suggestedBy: actor.id }]);
    },
  },
  {
    name: 'POST a suggestion to an organization collection',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/${w.spaces.organization.id}/suggestions`,
      payload: link,
    }),
    expect: wholeOrg(204),
    effect: async (w, actor) => {
      expect(await suggestionsFor(w.spaces.organization.id)).toMatchObject([
        { suggestedBy: actor.id },
      ]);
    },
  },
  {
    name: 'POST a favorite of a team link into one’s own My Space',
    request: (w, actor) => ({
      method: 'POST',
      url: `${c}/collections/${actor?.rootId ?? w.cast.owner.rootId}/favorites`,
      payload: { type: 'link', id: w.links.team.id },
    }),
    expect: { ...teamOnly(204), orgAdmin: 403 },
  },
  {
    name: "POST a favorite into the owner's My Space",
    request: (w) => ({
      method: 'POST',
      url: `${c}/collections/${w.cast.owner.rootId}/favorites`,
      payload: { type: 'link', id: w.links.organization.id },
    }),
    // The owner already has this favorite: allowed, but a conflict.
    expect: onlyOwner(409, 404),
  },
  {
    name: "DELETE the owner's favorite",
    request: (w) => ({ method: 'DELETE', url: `${c}/favorites/${w.favorite.id}` }),
    expect: onlyOwner(204, 404),
  },
  {
    name: "PUT the owner's favorite into another collection",
    request: (w) => ({
      method: 'PUT',
      url: `${c}/favorites/${w.favorite.id}/collection`,
      payload: { collectionId: w.spaces.own.id },
    }),
    expect: onlyOwner(204, 404),
  },
  {
    name: "POST a share of the owner's unshared collection",
    request: (w) => ({
      method: 'POST',
      url: `${c}/collection-shares/`,
      payload: { collectionId: w.spaces.own.id, memberIds: [w.cast.colleague.id] },
    }),
    expect: onlyOwner(204, 404),
  },
  {
    name: "POST a share of the owner's unshared collection with the owner's team",
    request: (w) => ({
      method: 'POST',
      url: `${c}/collection-shares/`,
      payload: { collectionId: w.spaces.own.id, memberIds: [], teamIds: [w.cast.team.id] },
    }),
    expect: onlyOwner(204, 404),
    effect: async (w) => {
      const [share] = await selectRows<{ id: string }>(
        db,
        sql`SELECT id FROM collection_shares WHERE collection_id = ${w.spaces.own.id}`,
      );
      expect(await shareMemberIds(share!.id)).toEqual(
        [w.cast.owner.id, w.cast.teamMember.id, w.cast.teamEditor.id].sort(),
      );
    },
  },
  {
    name: 'POST a team to the share',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collection-shares/${w.spaces.share.id}/teams`,
      payload: { teamIds: [w.cast.team.id] },
    }),
    expect: onlyOwner(204, 403),
    notFound: shareNotFound,
    effect: async (w) => {
      expect(await shareMemberIds(w.spaces.share.id)).toEqual(
        [w.cast.owner.id, w.cast.member.id, w.cast.teamMember.id, w.cast.teamEditor.id].sort(),
      );
    },
  },
  {
    name: 'DELETE a team from the share',
    request: (w) => ({
      method: 'DELETE',
      url: `${c}/collection-shares/${w.spaces.share.id}/teams/${w.cast.otherTeam.id}`,
    }),
    expect: onlyOwner(204, 403),
    notFound: shareNotFound,
    effect: async (w) => {
      const rows = await selectRows(
        db,
        sql`SELECT 1 FROM share_teams WHERE share_id = ${w.spaces.share.id}`,
      );
      expect(rows).toEqual([]);
    },
  },
  {
    name: 'DELETE the share',
    request: (w) => ({ method: 'DELETE', url: `${c}/collection-shares/${w.spaces.share.id}/` }),
    expect: onlyOwner(204, 403),
    notFound: shareNotFound,
  },
  {
    name: 'POST members to the share',
    request: (w) => ({
      method: 'POST',
      url: `${c}/collection-shares/${w.spaces.share.id}/members`,
      payload: { memberIds: [w.cast.teamMember.id] },
    }),
    expect: onlyOwner(204, 403),
    notFound: shareNotFound,
  },
  {
    name: 'DELETE the member from the share (remove, or leave)',
    request: (w) => ({
      method: 'DELETE',
      url: `${c}/collection-shares/${w.spaces.share.id}/members/${w.cast.member.id}`,
    }),
    expect: onlyOwner(204, 204),
  },
  {
    name: 'DELETE the owner from the share',
    request: (w) => ({
      method: 'DELETE',
      url: `${c}/collection-shares/${w.spaces.share.id}/members/${w.cast.owner.id}`,
    }),
    expect: onlyOwner(409, 403),
  },
];

const cells = CALLS.flatMap((call) =>
  ROLES.map((role) => ({ call, role, status: call.expect[role] })),
);

/**
 * The world of the cells that must change nothing (refusals and reads), made once: a cell that
 * changed it anyway fails on its own fingerprint before any other cell sees the change. A
 * call that is allowed to write gets a fresh world of its own.
 */
let unchanging: { w: Cell; headers: Map<Role, Record<string, string>> } | null = null;

async function worldFor(status: number, role: Role) {
  const fresh = async () => {
    const cast = await createCast(db);
    return { cast, ...(await createWorld(db, cast)) };
  };
  if (status === 204) {
    const w = await fresh();
    const actor = role === 'anonymous' ? null : w.cast[role];
    return { w, actor, headers: actor ? (await signIn(app, actor)).headers : {} };
  }
  unchanging ??= { w: await fresh(), headers: new Map() };
  const { w, headers } = unchanging;
  const actor = role === 'anonymous' ? null : w.cast[role];
  if (actor && !headers.has(role)) headers.set(role, (await signIn(app, actor)).headers);
  return { w, actor, headers: headers.get(role) ?? {} };
}

describe('permission table of every consumer call', () => {
  it.each(cells)('$call.name as $role → $status', async ({ call, role, status }) => {
    const { w, actor, headers } = await worldFor(status, role);
    const before = await fingerprint(w);
    const response = await app.inject({ ...call.request(w, actor), headers });
    expect(response.statusCode, response.body).toBe(status);
    const after = await fingerprint(w);
    if (status === 204) {
      expect(after).not.toBe(before);
      await call.effect?.(w, actor!);
    } else expect(after).toBe(before);
    if (status >= 400) {
      expect(response.json()).toMatchObject({ code: CODES[status], message: expect.any(String) });
    }
    if (status === 404 && call.notFound) expect(response.json().message).toBe(call.notFound(w));
  });
});

/**
 * A SCIM token (decision 0084) is the identity system's, for /scim/v2 alone: on every call of
 * the table, even one its organization's administrator may make, it is 401 and changes
 * nothing; and no other way in opens /scim/v2.
 */
describe('a SCIM token, on every consumer call', () => {
  let scimHeaders: Record<string, string> | null = null;
  async function scimToken(w: Cell) {
    if (!scimHeaders) {
      const admin = { ...callerOf(w.cast.orgAdmin), recentlyAuthenticated: true };
      const { token } = await app.services.scim.createToken(admin, {}, 'Identity system');
      scimHeaders = { authorization: `Bearer ${token}` };
    }
    return scimHeaders;
  }

  it.each(CALLS)('$name → 401', async (call) => {
    const { w } = await worldFor(401, 'anonymous');
    const headers = await scimToken(w);
    const before = await fingerprint(w);
    const response = await app.inject({ ...call.request(w, w.cast.orgAdmin), headers });
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json()).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'A SCIM token opens /scim/v2 and nothing else.',
    });
    expect(await fingerprint(w)).toBe(before);
  });

  it('and /scim/v2 takes no session, no access token, nothing but its tokens', async () => {
    const { w } = await worldFor(401, 'orgAdmin');
    const session = await signIn(app, w.cast.orgAdmin);
    const pat = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: session.headers,
      payload: { name: 'script' },
    });
    const accessToken = pat.json<{ token: string }>().token;
    for (const authorization of [
      session.headers.authorization,
      `Bearer ${accessToken}`,
      'Bearer spscim_not-a-token-of-anyone-at-all',
      'Basic dXNlcjpwYXNz',
    ]) {
      const response = await app.inject({
        method: 'GET',
        url: '/scim/v2/Users',
        headers: { authorization },
      });
      expect({ authorization, status: response.statusCode }).toEqual({
        authorization,
        status: 401,
      });
    }
  });
});
