// The menu's ETag follows what a person can see (migration 0013, decision 0057): each kind
// of change moves the ETags of exactly the people whose menus it reaches, and an old ETag
// is answered 304 by everyone else.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { organizations, teamMemberships, teams, users } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createOrganization,
  createShare,
  createTeam,
} from '../../../test/factories.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { createPerson, type Person } from '../../../test/support/world.ts';

const { app, db, database } = await createTestApp();

const NAMES = [
  'admin',
  'owner',
  'shareMember',
  'bystander',
  'editor',
  'teamMember',
  'loner',
  'stranger',
] as const;
type Name = (typeof NAMES)[number];

let people: Record<Name, Person>;
let team: { id: string; organizationId: string };
let privateCollection: { id: string; organizationId: string };
let sharedCollection: { id: string; organizationId: string };
let sharedChild: { id: string; organizationId: string };
let teamCollection: { id: string; organizationId: string };
let orgCollection: { id: string; organizationId: string };
let share: { id: string };

beforeAll(async () => {
  const org = await createOrganization(db);
  const other = await createOrganization(db);
  const person = (role: 'member' | 'admin' = 'member', organizationId = org.id) =>
    createPerson(app, db, organizationId, role);
  people = {
    admin: await person('admin'),
    owner: await person(),
    shareMember: await person(),
    bystander: await person(),
    editor: await person(),
    teamMember: await person(),
    loner: await person(),
    stranger: await person('member', other.id),
  };
  team = await createTeam(db, org.id, { buddyId: people.editor.id });
  await addTeamMember(db, team, people.editor.id, 'editor');
  await addTeamMember(db, team, people.teamMember.id);
  privateCollection = await createCollection(db, { user: people.owner });
  sharedCollection = await createCollection(db, { user: people.owner });
  sharedChild = await createCollection(
    db,
    { user: people.owner },
    { parentId: sharedCollection.id },
  );
  share = await createShare(db, people.owner, sharedCollection.id, [people.shareMember.id]);
  teamCollection = await createCollection(db, { team });
  orgCollection = await createCollection(db, { organizationId: org.id });
});

async function etags(): Promise<Record<Name, string>> {
  const entries = await Promise.all(
    NAMES.map(async (name) => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/consumer/menu',
        headers: people[name].headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return [name, String(response.headers.etag)] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Name, string>;
}

/** Makes a change and answers whose ETags moved; the others still get 304. */
async function movedBy(change: () => Promise<unknown>): Promise<Name[]> {
  const before = await etags();
  await change();
  const moved: Name[] = [];
  for (const name of NAMES) {
    const response = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { ...people[name].headers, 'if-none-match': before[name] },
    });
    if (response.statusCode === 200) {
      expect(response.headers.etag).not.toBe(before[name]);
      moved.push(name);
    } else {
      expect(response.statusCode).toBe(304);
      expect(response.headers.etag).toBe(before[name]);
    }
  }
  return moved;
}

const everyoneInTheOrganization: Name[] = NAMES.filter((name) => name !== 'stranger');

describe('the menu ETag', () => {
  it('is a digest that shows no version and differs between people', async () => {
    const tags = await etags();
    for (const tag of Object.values(tags)) expect(tag).toMatch(/^W\/"m[\w-]{27}"$/);
    expect(new Set(Object.values(tags)).size).toBe(NAMES.length);
  });

  it('moves for the owner alone when a private collection changes', async () => {
    expect(
      await movedBy(async () => {
        const answer = await call(
          app,
          'POST',
          `/collections/${privateCollection.id}/links`,
          people.owner,
          { name: 'Private', url: 'https://private.example' },
        );
        expect(answer.statusCode).toBe(204);
      }),
    ).toEqual(['owner']);
  });

  it('moves for the owner and the share members when a shared tree changes, below its top too', async () => {
    expect(await movedBy(() => createLink(db, sharedCollection))).toEqual(['owner', 'shareMember']);
    expect(await movedBy(() => createLink(db, sharedChild))).toEqual(['owner', 'shareMember']);
    // A collection moved out of the shared tree leaves its members' menus.
    expect(
      await movedBy(async () => {
        const answer = await call(app, 'PATCH', `/collections/${sharedChild.id}`, people.owner, {
          parentId: people.owner.rootId,
        });
        expect(answer.statusCode, answer.body).toBeLessThan(300);
      }),
    ).toEqual(['owner', 'shareMember']);
  });

  it("moves for the team's members when its content, name or buddy changes", async () => {
    const members: Name[] = ['editor', 'teamMember'];
    expect(await movedBy(() => createLink(db, teamCollection))).toEqual(members);
    expect(
      await movedBy(() =>
        db
          .update(teams)
          .set({ name: `Renamed ${newId()}` })
          .where(eq(teams.id, team.id)),
      ),
    ).toEqual(members);
    // The buddy's name shows on the team's card.
    expect(
      await movedBy(() =>
        db.update(users).set({ name: 'Eddie Renamed' }).where(eq(users.id, people.editor.id)),
      ),
    ).toEqual(members);
  });

  it("moves for everyone in the organization, and nobody else, when the organization's content or settings change", async () => {
    expect(await movedBy(() => createLink(db, orgCollection))).toEqual(everyoneInTheOrganization);
    expect(
      await movedBy(() =>
        db
          .update(organizations)
          .set({ teamIntro: `Intro ${newId()}` })
          .where(eq(organizations.id, people.admin.organizationId)),
      ),
    ).toEqual(everyoneInTheOrganization);
  });

  it('moves for exactly the people whose rights or memberships change', async () => {
    // Joining a team: the new member sees its space; the others see nothing new.
    expect(await movedBy(() => addTeamMember(db, team, people.loner.id))).toEqual(['loner']);
    // A role in a team decides what its editor may do.
    expect(
      await movedBy(() =>
        db
          .update(teamMemberships)
          .set({ role: 'editor' })
          .where(eq(teamMemberships.userId, people.loner.id)),
      ),
    ).toEqual(['loner']);
    // Leaving it.
    expect(
      await movedBy(() =>
        db.delete(teamMemberships).where(eq(teamMemberships.userId, people.loner.id)),
      ),
    ).toEqual(['loner']);
    // The organization role.
    expect(
      await movedBy(() =>
        db.update(users).set({ role: 'admin' }).where(eq(users.id, people.loner.id)),
      ),
    ).toEqual(['loner']);
    expect(
      await movedBy(() =>
        db.update(users).set({ role: 'member' }).where(eq(users.id, people.loner.id)),
      ),
    ).toEqual(['loner']);
  });

  it('moves for everyone in a share when its members change, and for whom it leaves', async () => {
    const added = await movedBy(async () => {
      const answer = await call(
        app,
        'POST',
        `/collection-shares/${share.id}/members`,
        people.owner,
        {
          memberIds: [people.bystander.id],
        },
      );
      expect(answer.statusCode, answer.body).toBeLessThan(300);
    });
    expect(added).toEqual(['owner', 'shareMember', 'bystander']);
    // A member's new name shows in the members' list.
    expect(
      await movedBy(() =>
        db.update(users).set({ name: 'Bea Renamed' }).where(eq(users.id, people.bystander.id)),
      ),
    ).toEqual(['owner', 'shareMember', 'bystander']);
    expect(
      await movedBy(() =>
        selectRows(
          db,
          sql`DELETE FROM share_members WHERE share_id = ${share.id} AND user_id = ${people.bystander.id}`,
        ),
      ),
    ).toEqual(['owner', 'shareMember', 'bystander']);
  });

  it("moves for the team's editors alone when a suggestion comes in", async () => {
    expect(
      await movedBy(async () => {
        const answer = await call(
          app,
          'POST',
          `/collections/${teamCollection.id}/suggestions`,
          people.teamMember,
          { name: 'Suggested', url: 'https://suggested.example' },
        );
        expect(answer.statusCode, answer.body).toBe(204);
      }),
    ).toEqual(['editor']);
  });

  it('does not move for a favorite of someone else, a sign-in, or another organization', async () => {
    const link = await createLink(db, orgCollection);
    expect(
      await movedBy(() =>
        call(app, 'POST', `/collections/${people.bystander.rootId}/favorites`, people.bystander, {
          type: 'link',
          id: link.id,
        }).then((answer) => expect(answer.statusCode, answer.body).toBe(204)),
      ),
    ).toEqual(['bystander']);
    expect(
      await movedBy(() =>
        db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, people.owner.id)),
      ),
    ).toEqual([]);
    const strangerSpace = await createCollection(db, {
      organizationId: people.stranger.organizationId,
    });
    expect(await movedBy(() => createLink(db, strangerSpace))).toEqual(['stranger']);
  });
});

describe('the cost of the menu ETag', () => {
  /**
   * Rows the ETag reads for a person, as the database counts them: the counters are read
   * before and after, in one transaction (they may hold counts of earlier transactions not
   * yet flushed to the statistics, never of other connections).
   */
  async function rowsRead(person: Person): Promise<number> {
    const read = sql`SELECT coalesce(sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)), 0) AS n
                     FROM pg_stat_xact_user_tables`;
    return db.transaction(async (tx) => {
      const [before] = await selectRows<{ n: string }>(tx, read);
      await selectRows(
        tx,
        sql`SELECT signpost_menu_scopes(${person.organizationId}, ${person.id}, false)`,
      );
      const [after] = await selectRows<{ n: string }>(tx, read);
      return Number(after?.n) - Number(before?.n);
    });
  }

  it('answers 304 with the session lookup alone, reading as many rows in a large organization as in a small one', async () => {
    const org = await createOrganization(db);
    const me = await createPerson(app, db, org.id);
    const mine = await createTeam(db, org.id);
    await addTeamMember(db, mine, me.id);
    const myCollection = await createCollection(db, { user: me });
    await createShare(db, me, myCollection.id, []);
    const orgCollection = await createCollection(db, { organizationId: org.id });
    await createLink(db, orgCollection);
    const small = await rowsRead(me);
    expect(small).toBeGreaterThan(0);

    // The organization grows around the person: people, teams, shares and content.
    const others = [];
    for (let i = 0; i < 40; i += 1) others.push(await createPerson(app, db, org.id));
    for (let i = 0; i < 20; i += 1) {
      const team = await createTeam(db, org.id);
      for (const other of others.slice(i, i + 5)) await addTeamMember(db, team, other.id);
      await createLink(db, await createCollection(db, { team }));
    }
    for (const other of others.slice(0, 20)) {
      const collection = await createCollection(db, { user: other });
      await createShare(db, other, collection.id, [others[39]!.id]);
      await createLink(db, collection);
    }
    await createLink(db, orgCollection);
    expect(await rowsRead(me)).toBe(small);

    const response = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: me.headers,
    });
    const before = database.statements.count;
    const again = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { ...me.headers, 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(database.statements.count - before).toBe(1);
  });
});
