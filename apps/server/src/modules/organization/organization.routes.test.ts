import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, identities, organizations, users } from '../../db/schema/index.ts';
import { selectRows } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization } from '../../../test/factories.ts';
import { adminCall, expectAdminRefused } from '../../../test/support/admin-call.ts';
import { createPerson, createSignedInCast, type Role } from '../../../test/support/world.ts';

const SSO_ORG = `Single sign-on org ${newId()}`;
const { app, db } = await createTestApp({
  OIDC_PROVIDERS: JSON.stringify([
    {
      id: 'corp',
      name: 'Corp',
      issuer: 'http://127.0.0.1:9/corp',
      clientId: 'signpost',
      clientSecret: 'secret',
      organization: SSO_ORG,
      allowedDomains: ['corp.test'],
    },
  ]),
});
const cast = await createSignedInCast(app, db);
const disabled = await createPerson(app, db, cast.org.id, 'admin');
await db.update(users).set({ status: 'disabled' }).where(eq(users.id, disabled.id));

type Who = Role | 'disabled' | null;
const as = (who: Who) => (who === 'disabled' ? disabled : who ? cast[who] : null);
const get = (who: Who) => adminCall(app, 'GET', '/organization', as(who));
const patch = (who: Who, body: unknown, person = as(who)) =>
  adminCall(app, 'PATCH', '/organization', person, body);
const scopeVersion = async (scope: string) => {
  const [row] = await selectRows<{ version: string }>(
    db,
    sql`SELECT version FROM menu_scopes WHERE scope = ${scope}`,
  );
  return Number(row?.version ?? 0);
};
const orgRow = async (id = cast.org.id) =>
  (await db.select().from(organizations).where(eq(organizations.id, id)))[0]!;

describe('GET and PATCH /api/admin/organization', () => {
  it.each([
    [null, 401],
    ['disabled', 401],
    ['teamEditor', 403],
    ['teamMember', 403],
    ['colleague', 403],
  ] as [Who, number][])('%s is refused with %i, nothing changed', async (who, status) => {
    await expectAdminRefused(db, () => get(who), status);
    await expectAdminRefused(db, () => patch(who, { name: 'Taken over' }), status);
  });

  it('an outsider administrator only ever reads and changes their own organization', async () => {
    const before = await orgRow();
    const answer = await patch('outsider', { name: `Outside ${newId()}` });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().id).toBe(cast.otherOrg.id);
    expect(await orgRow()).toEqual(before);
  });

  it('reads the defaults', async () => {
    const answer = await get('orgAdmin');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      id: cast.org.id,
      name: cast.org.name,
      feedbackUrl: null,
      consentUrl: null,
      intros: { personal: '', team: '', organization: '' },
      passwordSignIn: true,
      ssoDomains: [],
      auditRetentionDays: 365,
      ssoConfigured: false,
    });
  });

  it('changes what is given, normalized, audited with before and after, and the menu shows it', async () => {
    const menuBefore = await scopeVersion(`o:${cast.org.id}`);
    const answer = await patch('orgAdmin', {
      feedbackUrl: 'forms.example.com/feedback',
      consentUrl: 'https://example.com/consent',
      teamIntro: '  Your team’s links.  ',
      ssoDomains: ['Example.COM', '@corp.example.com', 'example.com', 'bücher.de'],
      auditRetentionDays: 30,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      feedbackUrl: 'https://forms.example.com/feedback',
      consentUrl: 'https://example.com/consent',
      intros: { personal: '', team: 'Your team’s links.', organization: '' },
      ssoDomains: ['corp.example.com', 'example.com', 'xn--bcher-kva.de'],
      auditRetentionDays: 30,
    });
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, cast.org.id));
    expect(entry).toMatchObject({
      action: 'organization.settings-changed',
      actorId: cast.orgAdmin.id,
      before: {
        feedbackUrl: null,
        consentUrl: null,
        teamIntro: '',
        ssoDomains: [],
        auditRetentionDays: 365,
      },
      after: { feedbackUrl: 'https://forms.example.com/feedback', auditRetentionDays: 30 },
    });
    expect(await scopeVersion(`o:${cast.org.id}`)).toBeGreaterThan(menuBefore);
    const menu = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: cast.member.headers,
    });
    expect(menu.json().organization).toMatchObject({
      feedbackUrl: 'https://forms.example.com/feedback',
      consentUrl: 'https://example.com/consent',
      intros: { team: 'Your team’s links.' },
    });
    const cleared = await patch('orgAdmin', { feedbackUrl: '', consentUrl: null });
    expect(cleared.json()).toMatchObject({ feedbackUrl: null, consentUrl: null });
  });

  it('refuses turning password sign-in off without a provider for the organization', async () => {
    const answer = await expectAdminRefused(
      db,
      () => patch('orgAdmin', { passwordSignIn: false }),
      409,
    );
    expect(answer.message).toContain('no single sign-on provider');
  });

  it('turns password sign-in off only for an administrator who signed in with single sign-on', async () => {
    const org = await createOrganization(db, { name: SSO_ORG });
    const admin = await createPerson(app, db, org.id, 'admin');
    expect((await patch(null, {}, admin)).statusCode).toBe(400);
    expect((await adminCall(app, 'GET', '/organization', admin)).json().ssoConfigured).toBe(true);
    const lockedOut = await expectAdminRefused(
      db,
      () => patch(null, { passwordSignIn: false }, admin),
      409,
    );
    expect(lockedOut.message).toContain('lock you out');
    await db.insert(identities).values({
      id: newId(),
      userId: admin.id,
      providerId: 'corp',
      issuer: 'http://127.0.0.1:9/corp',
      subject: newId(),
    });
    const off = await patch(null, { passwordSignIn: false }, admin);
    expect(off.statusCode).toBe(200);
    expect((await orgRow(org.id)).passwordSignIn).toBe(false);
    const rename = await expectAdminRefused(
      db,
      () => patch(null, { name: 'Another name' }, admin),
      409,
    );
    expect(rename.message).toContain('corp');
  });

  const bad: [string, unknown][] = [
    ['empty body', {}],
    ['unknown property', { name: 'Ok', menuVersion: 1 }],
    ['name blank', { name: '  ' }],
    ['name too long', { name: 'x'.repeat(201) }],
    ['name a number', { name: 1 }],
    ['javascript: feedback', { feedbackUrl: 'javascript:alert(1)' }],
    ['mailto: consent', { consentUrl: 'mailto:privacy@example.com' }],
    ['spaces in an address', { feedbackUrl: 'https://exa mple.com' }],
    ['an address too long', { feedbackUrl: `https://e.com/${'a'.repeat(2048)}` }],
    ['intro too long', { personalIntro: 'x'.repeat(2001) }],
    ['NUL in an intro', { organizationIntro: 'a\u0000b' }],
    ['domain with a path', { ssoDomains: ['example.com/x'] }],
    ['domain without a dot', { ssoDomains: ['localhost'] }],
    ['domain with an @ inside', { ssoDomains: ['me@example.com'] }],
    ['domain a number', { ssoDomains: [5] }],
    ['too many domains', { ssoDomains: Array.from({ length: 101 }, (_, i) => `d${i}.example`) }],
    ['retention 0', { auditRetentionDays: 0 }],
    ['retention 3651', { auditRetentionDays: 3651 }],
    ['retention a fraction', { auditRetentionDays: 1.5 }],
    ['retention a text', { auditRetentionDays: '30' }],
    ['password sign-in a text', { passwordSignIn: 'false' }],
  ];
  it.each(bad)('refuses %s with 400', async (_label, body) => {
    await expectAdminRefused(db, () => patch('orgAdmin', body), 400);
  });
});
