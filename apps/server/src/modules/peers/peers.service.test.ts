// The peer search: active people of the caller's organization but the caller, by name, a
// page at a time, matching name or e-mail. The server answers from the organization's people
// directory once it is built, and from its statement while there is none (decision 0072):
// every rule holds both ways.
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { createTestServices } from '../../../test/app.ts';
import { createOrganization, createUser, type TestUser } from '../../../test/factories.ts';
import { createPeersService, type PeersService } from './peers.service.ts';
import { callerOf } from '../../../test/support/callers.ts';

const { services, repositories, db } = await createTestServices();

/**
 * The service as the root builds it, but for an organization whose directory is not built
 * yet: the directory has nothing to answer (as while it is being built, or on a database
 * that orders names otherwise), and every page comes from the statement.
 */
const fromStatement = createPeersService({
  db,
  peers: repositories.peers,
  directory: { searchPeers: async () => null },
});

interface Peer {
  id: string;
  name: string;
  email: string;
}
const ids = (list: { id: string }[]) => list.map((p) => p.id).sort();
const asPeer = ({ id, name, email }: TestUser): Peer => ({ id, name, email });

// Plain e-mails: the factory's default ones may hold `_` or `-` from an id.
let emails = 0;
const email = () => `peer${(emails += 1)}@example.test`;

/** An organization with the caller, some colleagues, a disabled one and a stranger. */
async function organization(names: string[]) {
  const org = await createOrganization(db);
  const me = await createUser(db, org.id, { name: 'Me Myself', email: email() });
  const people: TestUser[] = [];
  for (const name of names) people.push(await createUser(db, org.id, { name, email: email() }));
  const disabled = await createUser(db, org.id, {
    name: 'Disabled Dora',
    email: email(),
    status: 'disabled',
  });
  const stranger = await createUser(db, (await createOrganization(db)).id, {
    name: 'Stranger Dora',
    email: email(),
  });
  return { me, caller: callerOf(me), people, disabled, stranger };
}

describe.each([
  ['as the server answers (from the directory once it is built)', services.peers],
  ['from the statement, before the organization has a directory', fromStatement],
] as [string, PeersService][])('the peer search %s', (_way, peers) => {
  const search = async (caller: AuthContext, query: Parameters<PeersService['listPeers']>[1]) =>
    (await peers.listPeers(caller, query)).items;

  it('lists active people of the organization but the caller, by name, 10 by default', async () => {
    const names = ['erin', 'Bob', 'alice', 'Dave', 'carol', 'Frank', 'gina', 'Hugo', 'ivy', 'Jo'];
    const { me, caller, people, disabled, stranger } = await organization([...names, 'kim']);
    const list = await search(caller, {});
    expect(list.map((p) => p.name)).toEqual(
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    expect(list[0]).toEqual(asPeer(people.find((p) => p.name === 'alice')!));
    for (const hidden of [me, disabled, stranger]) expect(ids(list)).not.toContain(hidden.id);
  });

  it('pages with limit and offset, without gaps or repeats, and ends with an empty page', async () => {
    const names = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo', 'alpha', 'Foxtrot', 'golf'];
    const { caller, people } = await organization(names);
    const all = await search(caller, { limit: 100 });
    expect(ids(all)).toEqual(ids(people));
    const lowered = all.map((p) => p.name.toLowerCase());
    expect(lowered).toEqual([...lowered].sort());
    const pages: Peer[][] = [];
    for (let offset = 0; ; offset += 3) {
      const page = await search(caller, { limit: 3, offset });
      pages.push(page);
      if (page.length === 0) break;
    }
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2, 0]);
    expect(pages.flat()).toEqual(all);
    expect(await search(caller, { offset: 1_000_000 })).toEqual([]);
  });

  it('matches name or e-mail in any case', async () => {
    const { caller, people } = await organization(['Grace Hopper', 'Alan Turing']);
    const [grace, alan] = people as [TestUser, TestUser];
    const address = `ADA.Codes${(emails += 1)}@Example.test`;
    await db.update(users).set({ email: address }).where(eq(users.id, alan.id));
    expect(await search(caller, { query: 'hOPP' })).toEqual([asPeer(grace)]);
    expect(await search(caller, { query: 'ada.codes' })).toEqual([
      { ...asPeer(alan), email: address },
    ]);
    expect(await search(caller, { query: 'dora' })).toEqual([]);
  });

  it('takes %, _ and \\ literally', async () => {
    const { caller, people } = await organization([
      '100% Sure',
      '100 Percent',
      'a_b',
      'axb',
      'c\\d',
      'cd',
    ]);
    const byName = (name: string) => asPeer(people.find((p) => p.name === name)!);
    expect(await search(caller, { query: '0%' })).toEqual([byName('100% Sure')]);
    expect(await search(caller, { query: '%' })).toEqual([byName('100% Sure')]);
    expect(await search(caller, { query: 'a_b' })).toEqual([byName('a_b')]);
    expect(await search(caller, { query: '_' })).toEqual([byName('a_b')]);
    expect(await search(caller, { query: 'c\\d' })).toEqual([byName('c\\d')]);
    expect(await search(caller, { query: '\\' })).toEqual([byName('c\\d')]);
  });

  it('matches exactly the people whose lowered name or e-mail contains the lowered query', async () => {
    const tricky = ['%', '_', '\\', 'a', 'A', 'n', 'N', 's', ' ', '1', '0', '@', '.'];
    const names = [
      'Anna Smith',
      'ANNA_LEE',
      'anna%lee',
      'Ann\\a',
      '100% Sure',
      'Percy_',
      'under_score',
      'Back\\Slash',
      'a_b%c\\d',
      'zoë',
      'plain',
      '%',
      '_',
      '\\',
      'Sam 10.0',
    ];
    const { me, caller, people } = await organization(names);
    // E-mails carry the tricky characters too, so a query can match on either field.
    for (const [i, person] of people.entries()) {
      const address = `${i}${tricky[i % tricky.length]}${tricky[(i * 7) % tricky.length]}x${person.id.slice(0, 8)}@Peers.test`;
      await db.update(users).set({ email: address }).where(eq(users.id, person.id));
      person.email = address;
    }
    // The caller's own name matches plenty of queries and must still never appear.
    await db.update(users).set({ name: 'Anna %_\\ Me' }).where(eq(users.id, me.id));

    const query = fc.string({
      unit: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...tricky) },
        { weight: 1, arbitrary: fc.constantFrom(...'bcdeilmpru-') },
        { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }) },
      ),
      maxLength: 5,
    });
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const needle = q.toLowerCase();
        const expected = people.filter(
          (p) => p.name.toLowerCase().includes(needle) || p.email.toLowerCase().includes(needle),
        );
        expect(ids(await search(caller, { query: q, limit: 100 }))).toEqual(ids(expected));
      }),
      { numRuns: 75 },
    );
  });

  it('matches nobody for a query holding a NUL character, which no stored text holds', async () => {
    const { caller } = await organization(['Nul Person']);
    expect(await search(caller, { query: 'Nul\u0000' })).toEqual([]);
    expect(await search(caller, { query: 'Nul' })).toHaveLength(1);
  });
});

it('answers a query holding a line break from the statement, which the directory leaves to it', async () => {
  const { caller, people } = await organization(['Two\nLines', 'Two Lines']);
  expect(await services.peers.listPeers(caller, { query: 'o\nL' })).toEqual({
    items: [asPeer(people[0]!)],
  });
});
