import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser, signIn, type TestUser } from '../../../test/factories.ts';

const { app, db } = await createTestApp();

type Headers = Record<string, string>;
interface Peer {
  id: string;
  name: string;
  email: string;
}

const peers = (headers: Headers, query: Record<string, string | number> = {}) =>
  app.inject({ method: 'GET', url: '/api/consumer/peers', headers, query: stringify(query) });

const stringify = (query: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));

const items = (response: { json: () => unknown }) => (response.json() as { items: Peer[] }).items;
const asPeer = ({ id, name, email }: TestUser): Peer => ({ id, name, email });

// What the search finds and in which order is tested against the service, both from the
// people directory and from its statement (peers.service.test.ts); here, the answers of the
// route and the refused queries.

// Plain e-mails: the factory's default ones may hold `_` or `-` from an id.
let emails = 0;
const email = () => `peer${(emails += 1)}@example.test`;

/** An organization with a signed-in person and some colleagues. */
async function organization(names: string[]) {
  const org = await createOrganization(db);
  const me = await createUser(db, org.id, { name: 'Me Myself', email: email() });
  const people: TestUser[] = [];
  for (const name of names) people.push(await createUser(db, org.id, { name, email: email() }));
  const { headers } = await signIn(app, me);
  return { people, headers };
}

describe('GET /api/consumer/peers', () => {
  it('requires authentication', async () => {
    const response = await peers({});
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });

  it('answers 200 with the first page of people, 10 by default', async () => {
    const names = ['erin', 'Bob', 'alice', 'Dave', 'carol', 'Frank', 'gina', 'Hugo', 'ivy', 'Jo'];
    const { people, headers } = await organization([...names, 'kim']);
    const response = await peers(headers);
    expect(response.statusCode).toBe(200);
    const list = items(response);
    expect(list).toHaveLength(10);
    expect(list[0]).toEqual(asPeer(people.find((p) => p.name === 'alice')!));
  });

  it.each([
    ['a line break', 'a\nb'],
    ['a NUL character', 'a\u0000b'],
    ['a tab', 'a\tb'],
  ])('refuses a query holding %s with 400 naming the field', async (_what, query) => {
    const { headers } = await organization(['alice']);
    const response = await peers(headers, { query });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^The search (cannot contain|needs to be one line)/);
  });

  it.each([
    ['limit 0', { limit: 0 }],
    ['limit 101', { limit: 101 }],
    ['a limit that is not a number', { limit: 'ten' }],
    ['a fractional limit', { limit: 1.5 }],
    ['a negative offset', { offset: -1 }],
    ['an offset over a million', { offset: 1_000_001 }],
    ['a query over 200 characters', { query: 'a'.repeat(201) }],
    ['an unknown parameter', { role: 'admin' }],
  ])('refuses %s with 400', async (_what, query) => {
    const { headers } = await organization(['alice']);
    const response = await peers(headers, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('takes limit 100 and a query of 200 characters', async () => {
    const { headers } = await organization(['alice']);
    expect((await peers(headers, { limit: 100 })).statusCode).toBe(200);
    expect((await peers(headers, { query: 'a'.repeat(200) })).statusCode).toBe(200);
  });
});
