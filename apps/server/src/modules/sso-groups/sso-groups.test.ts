// Teams and the administrator role from a sign-in's groups (decision 0084), through a real
// OpenID provider: the console names the claim and the mappings; each sign-in adds and
// removes the memberships that came from groups, and nothing else; a claim that is missing,
// cut short or left out for having too many groups changes nothing.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createOrganization,
  createTeam,
  createUser,
  signIn,
} from '../../../test/factories.ts';
import { browserSignIn, sessionTokenOf } from '../../../test/support/sso-browser.ts';
import { ssoProviders } from '../../../test/support/sso-app.ts';
import type { TestAccount } from '../../../test/support/sso-provider.ts';
import { auditLog, teamMemberships, users } from '../../db/schema/index.ts';

const { idp, env } = await ssoProviders();
const { app, db } = await createTestApp(env);
const org = await createOrganization(db, { name: 'Acme' });
const admin = await createUser(db, org.id, { role: 'admin' });
const adminSession = await signIn(app, admin);
const engineering = await createTeam(db, org.id, { name: 'Engineering' });
const operations = await createTeam(db, org.id, { name: 'Operations' });
const design = await createTeam(db, org.id, { name: 'Design' });

const put = (
  body: unknown,
  headers: Record<string, string> = adminSession.headers,
  provider = 'acme',
) =>
  app.inject({
    method: 'PUT',
    url: `/api/admin/sso-groups/${provider}`,
    headers,
    payload: body as object,
  });

const mappings = {
  claim: 'groups',
  mappings: [
    { group: 'eng', teamId: engineering.id, role: 'editor', admin: false },
    { group: 'ops', teamId: operations.id, role: 'member', admin: false },
    { group: 'design-id-42', teamId: design.id, role: 'member', admin: false },
    { group: 'portal-admins', teamId: null, role: null, admin: true },
  ],
};
const saved = await put(mappings);
expect(saved.statusCode, saved.body).toBe(200);

let n = 0;
function account(groups: Partial<TestAccount> = {}): TestAccount & { email: string } {
  n += 1;
  return {
    sub: `groups-${n}-${Date.now()}`,
    email: `groups${n}-${Date.now()}@acme.test`,
    email_verified: true,
    name: `Grouped ${n}`,
    ...groups,
  };
}

/** Signs `who` in through the provider with these claims; their id. */
async function signInAs(who: TestAccount & { email: string }, claims: Partial<TestAccount>) {
  idp.nextLogin = { ...who, ...claims };
  const { location } = await browserSignIn(app, 'acme');
  expect(sessionTokenOf(location), location).not.toBeNull();
  const [row] = await db.select().from(users).where(eq(users.email, who.email));
  return row!;
}

async function membershipsOf(userId: string) {
  const rows = await db.select().from(teamMemberships).where(eq(teamMemberships.userId, userId));
  return Object.fromEntries(
    rows.map((m) => [
      m.teamId === engineering.id ? 'eng' : m.teamId === operations.id ? 'ops' : 'design',
      { role: m.role, console: m.fromConsole, signIn: m.fromSignIn },
    ]),
  );
}

describe('the console', () => {
  it('shows each provider of the organization with its claim and mappings', async () => {
    const list = await app.inject({
      method: 'GET',
      url: '/api/admin/sso-groups',
      headers: adminSession.headers,
    });
    expect(list.statusCode).toBe(200);
    const acme = list
      .json<{ items: { providerId: string; claim: string | null; mappings: unknown[] }[] }>()
      .items.find((p) => p.providerId === 'acme');
    expect(acme).toMatchObject({ claim: 'groups' });
    expect(acme!.mappings).toContainEqual({
      group: 'eng',
      teamId: engineering.id,
      teamName: 'Engineering',
      role: 'editor',
      admin: false,
    });
    const entries = await db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.organizationId, org.id),
          eq(auditLog.action, 'organization.settings-changed'),
        ),
      );
    expect(entries.at(-1)!.after).toMatchObject({
      ssoGroups: { provider: 'acme', claim: 'groups' },
    });
  });

  it('refuses what cannot be kept, changing nothing', async () => {
    const other = await createOrganization(db);
    const elsewhere = await createTeam(db, other.id);
    const member = await createUser(db, org.id);
    const cases: [unknown, number, Record<string, string> | undefined, string][] = [
      [
        {
          claim: 'groups',
          mappings: [{ group: 'x', teamId: elsewhere.id, role: 'member', admin: false }],
        },
        404,
        undefined,
        'acme',
      ],
      [
        {
          claim: 'groups',
          mappings: [{ group: 'x', teamId: engineering.id, role: null, admin: false }],
        },
        400,
        undefined,
        'acme',
      ],
      [
        { claim: 'groups', mappings: [{ group: 'x', teamId: null, role: null, admin: false }] },
        400,
        undefined,
        'acme',
      ],
      [{ claim: 'no spaces allowed', mappings: [] }, 400, undefined, 'acme'],
      [mappings, 404, undefined, 'no-such-provider'],
      [mappings, 403, (await signIn(app, member)).headers, 'acme'],
    ];
    for (const [body, status, headers, provider] of cases) {
      const response = await put(body, headers ?? adminSession.headers, provider);
      expect({ body, status: response.statusCode }).toEqual({ body, status });
    }
    const list = await app.inject({
      method: 'GET',
      url: '/api/admin/sso-groups',
      headers: adminSession.headers,
    });
    expect(
      list.json().items.find((p: { providerId: string }) => p.providerId === 'acme').mappings,
    ).toHaveLength(4);
  });
});

describe('each sign-in', () => {
  it('adds and removes the memberships from groups, and never one made by hand', async () => {
    const who = account();
    const person = await signInAs(who, { groups: ['eng', 'ops', 'unmapped'] });
    expect(await membershipsOf(person.id)).toEqual({
      eng: { role: 'editor', console: false, signIn: true },
      ops: { role: 'member', console: false, signIn: true },
    });
    await addTeamMember(db, design, person.id);
    await signInAs(who, { groups: ['ops', 'design-id-42'] });
    expect(await membershipsOf(person.id)).toEqual({
      ops: { role: 'member', console: false, signIn: true },
      design: { role: 'member', console: true, signIn: true },
    });
    await signInAs(who, { groups: [] });
    expect(await membershipsOf(person.id)).toEqual({
      design: { role: 'member', console: true, signIn: false },
    });
    const synced = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, person.id), eq(auditLog.action, 'person.groups-synced')));
    expect(synced).toHaveLength(3);
    expect(synced[0]).toMatchObject({
      actorId: person.id,
      details: expect.objectContaining({ via: 'sign-in groups', provider: 'acme' }),
    });
  });

  it('changes nothing when the claim is missing, left out for too many groups, or not a list', async () => {
    const who = account();
    const person = await signInAs(who, { groups: 'eng' });
    const before = await membershipsOf(person.id);
    expect(before).toEqual({ eng: { role: 'editor', console: false, signIn: true } });
    await signInAs(who, {});
    await signInAs(who, { _claim_names: { groups: 'src1' } });
    await signInAs(who, { hasgroups: true });
    await signInAs(who, { groups: { not: 'a list' } });
    expect(await membershipsOf(person.id)).toEqual(before);
  });

  it('only adds when the claim may have been cut short (100 groups or more)', async () => {
    const who = account();
    const person = await signInAs(who, { groups: ['eng'] });
    const many = ['ops', ...Array.from({ length: 99 }, (_, i) => `other-${i}`)];
    await signInAs(who, { groups: many });
    expect(Object.keys(await membershipsOf(person.id)).sort()).toEqual(['eng', 'ops']);
  });

  it('gives the administrator role by group, and takes back only what it gave', async () => {
    const who = account();
    const person = await signInAs(who, { groups: ['portal-admins'] });
    expect(person.role).toBe('admin');
    const again = await signInAs(who, { groups: [] });
    expect(again.role).toBe('member');

    const byHand = account();
    const made = await signInAs(byHand, { groups: [] });
    await db.update(users).set({ role: 'admin' }).where(eq(users.id, made.id));
    const stays = await signInAs(byHand, { groups: [] });
    expect(stays.role).toBe('admin');
  });
});
