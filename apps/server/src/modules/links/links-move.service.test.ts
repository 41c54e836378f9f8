// Moving and suggesting links, against the service and its real repositories: the link and
// the target are authorized on their own, team and organization links stay in their space
// (409), and a suggestion goes only to a team or organization collection.
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, linkSuggestions } from '../../db/schema/index.ts';
import { createTestServices } from '../../../test/app.ts';
import { createCollection, createLink } from '../../../test/factories.ts';
import { linkRow } from '../../../test/support/rows.ts';
import {
  createCast,
  createSpaces,
  createWorld,
  type LinkKind,
  type Place,
  type Role,
} from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';
import {
  OTHER_SPACE,
  REFUSALS,
  type Refused,
  expectRefusedUnchanged,
} from '../../../test/support/content-refusals.ts';

const { services, db } = await createTestServices();
const { links: service } = services;
const cast = await createCast(db);

const as = (role: Role) => callerOf(cast[role]);
const origin = { ip: '203.0.113.7', userAgent: 'content-test' };

/** Runs a call that must be refused: its AppError, and no content row changed. */
const expectRefused = (call: () => Promise<unknown>, statusCode: number, message: string) =>
  expectRefusedUnchanged(db, call, statusCode, message);

describe('moving a link', () => {
  it('puts it at the end of the target', async () => {
    const { links: spot } = await createWorld(db, cast);
    const target = await createCollection(db, { user: cast.owner });
    await createLink(db, target, { position: 11 });
    const before = await linkRow(db, spot.own.id);
    await service.moveLink(as('owner'), spot.own.id, target.id);
    expect(await linkRow(db, spot.own.id)).toEqual({
      ...before,
      collectionId: target.id,
      position: 12,
      updatedAt: expect.any(Date),
    });
  });

  it('moves to My Space when the target is the root', async () => {
    const { links: spot } = await createWorld(db, cast);
    await service.moveLink(as('owner'), spot.own.id, cast.owner.rootId);
    expect(await linkRow(db, spot.own.id)).toMatchObject({ collectionId: cast.owner.rootId });
  });

  it('changes nothing when the link is already there', async () => {
    const { links: spot, spaces } = await createWorld(db, cast);
    await createLink(db, spaces.own, { position: 500 });
    const before = await linkRow(db, spot.own.id);
    await service.moveLink(as('owner'), spot.own.id, spaces.own.id);
    expect(await linkRow(db, spot.own.id)).toEqual(before);
  });

  it('lets a member take a link they added to a share into their own My Space', async () => {
    const { links: spot } = await createWorld(db, cast);
    const id = spot.memberInShare.id;
    await service.moveLink(as('member'), id, cast.member.rootId);
    expect(await linkRow(db, id)).toMatchObject({
      collectionId: cast.member.rootId,
      createdBy: cast.member.id,
    });
  });

  // Taking the link out and adding it to the target both count; a 404 names the one the
  // caller cannot see, a 403 says which refused.
  const cells: [Role, LinkKind, Place, 204 | 409 | 'link' | 'target' | Refused][] = [
    ['owner', 'own', 'shared', 204],
    ['owner', 'inRoot', 'sharedSub', 204],
    ['owner', 'own', 'colleagues', 'target'],
    ['owner', 'own', 'colleagueRoot', 'target'],
    ['owner', 'own', 'outsiders', 'target'],
    ['owner', 'own', 'otherTeam', 'target'],
    ['owner', 'own', 'otherOrganization', 'target'],
    ['owner', 'own', 'unknown', 'target'],
    ['owner', 'own', 'team', 'team'],
    ['owner', 'own', 'organization', 'organization'],
    ['owner', 'team', 'own', 'team'],
    ['owner', 'organization', 'root', 'organization'],
    ['owner', 'colleagues', 'own', 'link'],
    ['owner', 'outsiders', 'own', 'link'],
    ['owner', 'unknown', 'own', 'link'],
    ['member', 'memberInShare', 'sharedSub', 204],
    ['member', 'memberInSharedSub', 'shared', 204],
    ['member', 'ownerInShare', 'sharedSub', 'added'],
    ['member', 'memberInShare', 'team', 'target'],
    // Team and organization content moves in place, never out of its space (decision 0008).
    ['teamEditor', 'team', 'teamSub', 204],
    ['orgAdmin', 'organization', 'organization', 204],
    ['orgAdmin', 'team', 'teamSub', 204],
    ['teamEditor', 'team', 'otherTeam', 'target'],
    ['teamEditor', 'team', 'organization', 'organization'],
    ['orgAdmin', 'team', 'organization', 409],
    ['orgAdmin', 'team', 'otherTeam', 409],
    ['orgAdmin', 'organization', 'team', 409],
    ['teamMember', 'team', 'teamSub', 'team'],
    ['colleague', 'memberInShare', 'colleagueRoot', 'link'],
    ['outsider', 'own', 'outsiders', 'link'],
  ];
  it.each(cells)('%s moving a link (%s) to %s: %s', async (role, kind, place, outcome) => {
    const { links: spot, spaces } = await createWorld(db, cast);
    const [id, collectionId] = [spot[kind].id, spaces[place].id];
    const move = () => service.moveLink(as(role), id, collectionId);
    if (outcome === 204) {
      await move();
      expect(await linkRow(db, id)).toMatchObject({ collectionId });
    } else if (outcome === 409) {
      await expectRefused(move, 409, OTHER_SPACE);
    } else if (outcome === 'link') {
      await expectRefused(move, 404, `Link ${id} was not found`);
    } else if (outcome === 'target') {
      await expectRefused(move, 404, `Collection ${collectionId} was not found`);
    } else {
      await expectRefused(move, 403, REFUSALS[outcome]);
    }
  });
});

describe('suggesting a link', () => {
  const suggestionsFor = (collectionId: string) =>
    db.select().from(linkSuggestions).where(eq(linkSuggestions.collectionId, collectionId));
  const good = { name: ' Handbook ', url: 'handbook.example.com', description: 'For everyone' };

  it('stores an open suggestion by the caller, normalized, and audits it', async () => {
    const { team } = await createSpaces(db, cast);
    await service.suggestLink(as('teamMember'), team.id, good, origin);
    const stored = await suggestionsFor(team.id);
    expect(stored).toEqual([
      {
        id: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/),
        organizationId: cast.org.id,
        collectionId: team.id,
        suggestedBy: cast.teamMember.id,
        name: 'Handbook',
        description: 'For everyone',
        url: 'https://handbook.example.com/',
        status: 'open',
        decidedBy: null,
        decidedAt: null,
        reason: '',
        linkId: null,
        createdAt: expect.any(Date),
      },
    ]);
    const entries = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, stored[0]!.id))
      .orderBy(asc(auditLog.occurredAt));
    expect(entries).toMatchObject([
      {
        action: 'suggestion.created',
        actorId: cast.teamMember.id,
        targetType: 'suggestion',
        targetLabel: 'Handbook',
        ip: origin.ip,
        after: { name: 'Handbook', url: 'https://handbook.example.com/', collectionId: team.id },
      },
    ]);
  });

  it('takes suggestions to the organization from anyone of it', async () => {
    const { organization } = await createSpaces(db, cast);
    await service.suggestLink(as('colleague'), organization.id, good, origin);
    expect(await suggestionsFor(organization.id)).toMatchObject([
      { suggestedBy: cast.colleague.id, status: 'open' },
    ]);
  });

  // Who may suggest to a team or organization collection is in the permission table
  // (test/http/permissions.test.ts); here, the places no one may suggest to.
  const cells: [Role, Place, 403 | 404 | 409][] = [
    ['owner', 'otherTeam', 404],
    ['owner', 'otherOrganization', 404],
    ['owner', 'unknown', 404],
    ['owner', 'colleagues', 404],
    ['owner', 'own', 409],
    ['owner', 'root', 409],
    ['owner', 'shared', 409],
    ['member', 'shared', 409],
    ['member', 'sharedSub', 409],
    // An administrator runs a team they are not in, but is not one of its members.
    ['orgAdmin', 'otherTeam', 403],
  ];
  const messages = {
    403: 'Suggestions come from the members of the team.',
    409: 'Suggestions are for team and organization collections; add the link instead.',
  };
  it.each(cells)('%s suggesting to %s: %i', async (role, place, status) => {
    const id = (await createSpaces(db, cast))[place].id;
    await expectRefused(
      () => service.suggestLink(as(role), id, good, origin),
      status,
      status === 404 ? `Collection ${id} was not found` : messages[status],
    );
  });
});
