// Several items at once (decision 0075) against the services and their real repositories:
// each item goes through its own rules in one transaction, so one refusal changes nothing,
// and one undo takes them all back (decision 0076).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links } from '../../db/schema/index.ts';
import { createTestServices } from '../../../test/app.ts';
import { createCollection, createFavorite, createLink } from '../../../test/factories.ts';
import { callerOf } from '../../../test/support/callers.ts';
import { expectRefusedUnchanged, REFUSALS } from '../../../test/support/content-refusals.ts';
import { snapshot } from '../../../test/support/rows.ts';
import { createCast, createSpaces, type Role } from '../../../test/support/world.ts';

const { services, db } = await createTestServices();
const { batch } = services;
const cast = await createCast(db);
const as = (role: Role) => callerOf(cast[role]);
const origin = { ip: '203.0.113.7', userAgent: 'batch-test' };

const linksIn = async (collectionId: string) =>
  (await db.select().from(links).where(eq(links.collectionId, collectionId)))
    .sort((a, b) => a.position - b.position)
    .map((link) => link.id);

/** Rows without `updated_at`, which every write sets: what an undo gives back. */
const settled = async () => {
  const rows = await snapshot(db);
  return {
    ...rows,
    links: rows.links.map(({ updatedAt: _, ...rest }) => rest),
    collections: rows.collections.map(({ updatedAt: _, ...rest }) => rest),
  };
};

describe('moving several items', () => {
  it('moves links and a collection to the end of another collection, in the order given', async () => {
    const { team } = await createSpaces(db, cast);
    const to = await createCollection(db, { team: cast.team }, { parentId: team.id });
    const a = await createLink(db, team);
    const b = await createLink(db, team);
    const sub = await createCollection(db, { team: cast.team }, { parentId: team.id });
    await createLink(db, to);
    const ticket = await batch.moveItems(
      as('teamEditor'),
      {
        collectionId: to.id,
        items: [
          { type: 'link', id: b.id },
          { type: 'collection', id: sub.id },
          { type: 'link', id: a.id },
        ],
      },
      origin,
    );
    expect((await linksIn(to.id)).slice(-2)).toEqual([b.id, a.id]);
    expect(
      (await db.query.collections.findFirst({ where: (c, { eq: is }) => is(c.id, sub.id) }))
        ?.parentId,
    ).toBe(to.id);
    expect(ticket).not.toBeNull();
  });

  it('is undone all together: every item back in its place', async () => {
    const { own } = await createSpaces(db, cast);
    const to = await createCollection(db, { user: cast.owner }, { parentId: own.id });
    const a = await createLink(db, own, { position: 0 });
    const b = await createLink(db, own, { position: 1 });
    const c = await createLink(db, own, { position: 2 });
    const favorite = await createFavorite(
      db,
      cast.owner,
      (
        await createLink(db, {
          id: (await createCollection(db, { organizationId: cast.org.id })).id,
          organizationId: cast.org.id,
        })
      ).id,
      own.id,
    );
    const before = await settled();
    const ticket = await batch.moveItems(as('owner'), {
      collectionId: to.id,
      items: [
        { type: 'link', id: a.id },
        { type: 'link', id: c.id },
        { type: 'link-favorite', id: favorite.id },
      ],
    });
    expect(await linksIn(own.id)).toEqual([b.id]);
    await services.undo.undo(as('owner'), ticket!.id, origin);
    expect(await settled()).toEqual(before);
  });

  it('changes nothing when one item is refused, and says why', async () => {
    const { team, otherTeam } = await createSpaces(db, cast);
    const to = await createCollection(db, { team: cast.team }, { parentId: team.id });
    const mine = await createLink(db, team);
    const elsewhere = await createLink(db, otherTeam);
    await expectRefusedUnchanged(
      db,
      () =>
        batch.moveItems(as('teamEditor'), {
          collectionId: to.id,
          items: [
            { type: 'link', id: mine.id },
            { type: 'link', id: elsewhere.id },
          ],
        }),
      404,
      `Link ${elsewhere.id} was not found`,
    );
  });

  it('refuses a member who may not change the team’s links, and changes nothing', async () => {
    const { team, teamSub } = await createSpaces(db, cast);
    const link = await createLink(db, team);
    await expectRefusedUnchanged(
      db,
      () =>
        batch.moveItems(as('teamMember'), {
          collectionId: teamSub.id,
          items: [{ type: 'link', id: link.id }],
        }),
      403,
      REFUSALS.team,
    );
  });

  it('keeps team content in its space: a move into My Space is a 409, and nothing changes', async () => {
    const { team, own } = await createSpaces(db, cast);
    const link = await createLink(db, team);
    await expectRefusedUnchanged(
      db,
      () =>
        batch.moveItems(as('orgAdmin'), {
          collectionId: own.id,
          items: [{ type: 'link', id: link.id }],
        }),
      404,
      `Collection ${own.id} was not found`,
    );
  });
});

describe('deleting several items', () => {
  it('deletes them together, and one undo brings them all back exactly', async () => {
    const { organization } = await createSpaces(db, cast);
    const a = await createLink(db, organization);
    const sub = await createCollection(
      db,
      { organizationId: cast.org.id },
      { parentId: organization.id },
    );
    await createLink(db, sub);
    const b = await createLink(db, organization);
    const before = await settled();
    const ticket = await batch.deleteItems(as('orgAdmin'), {
      items: [
        { type: 'link', id: a.id },
        { type: 'collection', id: sub.id },
        { type: 'link', id: b.id },
      ],
    });
    expect(await linksIn(organization.id)).toEqual([]);
    await services.undo.undo(as('orgAdmin'), ticket.id, origin);
    expect(await settled()).toEqual(before);
  });

  it('brings back the rest when one of them was undone on its own meanwhile', async () => {
    const { own } = await createSpaces(db, cast);
    const a = await createLink(db, own);
    const b = await createLink(db, own);
    const before = await settled();
    const ticket = await batch.deleteItems(as('owner'), {
      items: [
        { type: 'link', id: a.id },
        { type: 'link', id: b.id },
      ],
    });
    const kept = await db.query.undoSnapshots.findFirst({
      where: (snap, { eq: is }) => is(snap.id, ticket.id),
    });
    const [first] = (kept!.rows as { batch: string[] }).batch;
    await services.undo.undo(as('owner'), first!, origin);
    await services.undo.undo(as('owner'), ticket.id, origin);
    expect(await settled()).toEqual(before);
  });

  it('changes nothing when one item is refused', async () => {
    const { own, colleagues } = await createSpaces(db, cast);
    const mine = await createLink(db, own);
    const theirs = await createLink(db, colleagues);
    await expectRefusedUnchanged(
      db,
      () =>
        batch.deleteItems(as('owner'), {
          items: [
            { type: 'link', id: mine.id },
            { type: 'link', id: theirs.id },
          ],
        }),
      404,
      `Link ${theirs.id} was not found`,
    );
  });
});
