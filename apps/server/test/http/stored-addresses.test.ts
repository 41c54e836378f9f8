// Every place an address is stored keeps the parsed form (decision 0049): links (new and
// edited), suggestions and the organization's footer addresses; a user part is 400 there.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { linkSuggestions, links, organizations } from '../../src/db/schema/index.ts';
import { createTestApp } from '../app.ts';
import {
  addTeamMember,
  createCollection,
  createOrganization,
  createTeam,
  createUser,
  signIn,
} from '../factories.ts';
import { snapshot } from '../support/rows.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const admin = await createUser(db, org.id, { role: 'admin' });
const member = await createUser(db, org.id);
const team = await createTeam(db, org.id);
await addTeamMember(db, team, member.id);
const teamSpace = await createCollection(db, { team });
const adminHeaders = (await signIn(app, admin)).headers;
const memberHeaders = (await signIn(app, member)).headers;

const TYPED: [string, string][] = [
  ['https:evil.example', 'https://evil.example/'],
  ['https:///evil.example/a', 'https://evil.example/a'],
  ['https:\\\\evil.example\\b', 'https://evil.example/b'],
  ['https://аррӏе.com/login', 'https://xn--80ak6aa92e.com/login'],
];
const USER_INFO = 'https://good.example@evil.example/';
/** The refusal of an address with a user name, after the field's label. */
const USER_INFO_PROBLEM =
  'cannot hold a user name or password before the host (user@host): give the address of the page itself.';

describe('addresses as stored', () => {
  it('a new link keeps the parsed form', async () => {
    for (const [typed, parsed] of TYPED) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/consumer/collections/${admin.rootId}/links`,
        headers: adminHeaders,
        payload: { name: typed, url: typed },
      });
      expect(response.statusCode).toBe(204);
      const [row] = await db.select().from(links).where(eq(links.name, typed));
      expect(row?.url).toBe(parsed);
    }
  });

  it('an edited link keeps the parsed form', async () => {
    const [row] = await db.select().from(links).where(eq(links.name, TYPED[0]![0]));
    const response = await app.inject({
      method: 'PATCH',
      url: `/api/consumer/links/${row!.id}`,
      headers: adminHeaders,
      payload: { url: 'HTTPS://Example.COM:443/a/../wiki' },
    });
    expect(response.statusCode).toBe(204);
    const [after] = await db.select().from(links).where(eq(links.id, row!.id));
    expect(after?.url).toBe('https://example.com/wiki');
  });

  it('a suggestion keeps the parsed form', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/consumer/collections/${teamSpace.id}/suggestions`,
      headers: memberHeaders,
      payload: { name: 'Look-alike', url: 'https://аррӏе.com' },
    });
    expect(response.statusCode).toBe(204);
    const [row] = await db
      .select()
      .from(linkSuggestions)
      .where(eq(linkSuggestions.name, 'Look-alike'));
    expect(row?.url).toBe('https://xn--80ak6aa92e.com/');
  });

  it('the footer addresses keep the parsed form', async () => {
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/admin/organization',
      headers: adminHeaders,
      payload: { feedbackUrl: 'https:forms.example/feedback', consentUrl: 'https://аррӏе.com' },
    });
    expect(response.statusCode).toBe(200);
    const [row] = await db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(row?.feedbackUrl).toBe('https://forms.example/feedback');
    expect(row?.consentUrl).toBe('https://xn--80ak6aa92e.com/');
  });

  it('refuses a user part everywhere, changing nothing', async () => {
    const [link] = await db.select().from(links).where(eq(links.name, TYPED[1]![0]));
    const [before] = await db.select().from(organizations).where(eq(organizations.id, org.id));
    const rows = await snapshot(db);
    const calls = [
      {
        method: 'POST',
        url: `/api/consumer/collections/${admin.rootId}/links`,
        headers: adminHeaders,
        payload: { name: 'x', url: USER_INFO },
        field: "The link's address",
      },
      {
        method: 'PATCH',
        url: `/api/consumer/links/${link!.id}`,
        headers: adminHeaders,
        payload: { url: USER_INFO },
        field: "The link's address",
      },
      {
        method: 'POST',
        url: `/api/consumer/collections/${teamSpace.id}/suggestions`,
        headers: memberHeaders,
        payload: { name: 'x', url: USER_INFO },
        field: "The link's address",
      },
      {
        method: 'PATCH',
        url: '/api/admin/organization',
        headers: adminHeaders,
        payload: { feedbackUrl: USER_INFO },
        field: 'The feedback address',
      },
    ] as const;
    for (const { field, ...call } of calls) {
      const response = await app.inject(call);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(`${field} ${USER_INFO_PROBLEM}`);
    }
    expect(await snapshot(db)).toEqual(rows);
    const [after] = await db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(after).toEqual(before);
  });
});
