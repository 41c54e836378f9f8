import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser, signIn } from '../../../test/factories.ts';
import { adminCall, expectAdminRefused } from '../../../test/support/admin-call.ts';
import { createPerson, createSignedInCast, type Role } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);
const disabled = await createPerson(app, db, cast.org.id, 'admin');
await db.update(users).set({ status: 'disabled' }).where(eq(users.id, disabled.id));

type Who = Role | 'disabled' | null;
const as = (who: Who) => (who === 'disabled' ? disabled : who ? cast[who] : null);
const get = (who: Who) => adminCall(app, 'GET', '/organization', as(who));
const patch = (who: Who, body: unknown) => adminCall(app, 'PATCH', '/organization', as(who), body);

// The rules of the settings (who may, how values are normalized, what is refused and why,
// what is audited) are tested against the service (organization.service.test.ts); here, the
// answer each kind of outcome gets, and the portal's menu showing a change.
describe('GET and PATCH /api/admin/organization', () => {
  it.each([
    [null, 401],
    ['disabled', 401],
    ['teamEditor', 403],
  ] as [Who, number][])('%s is refused with %i, nothing changed', async (who, status) => {
    await expectAdminRefused(db, () => get(who), status);
    await expectAdminRefused(db, () => patch(who, { name: 'Taken over' }), status);
  });

  it('answers the settings with 200', async () => {
    const answer = await get('orgAdmin');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ id: cast.org.id, name: cast.org.name });
  });

  it('answers a change with 200 and the settings, and the portal’s menu shows it', async () => {
    const answer = await patch('orgAdmin', {
      feedbackUrl: 'forms.example.com/feedback',
      consentUrl: 'https://example.com/consent',
      teamIntro: '  Your team’s links.  ',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      id: cast.org.id,
      feedbackUrl: 'https://forms.example.com/feedback',
    });
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
  });

  it('answers a refusal to turn password sign-in off with 409 and its reason', async () => {
    const answer = await expectAdminRefused(
      db,
      () => patch('orgAdmin', { passwordSignIn: false }),
      409,
    );
    expect(answer).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('no single sign-on provider'),
    });
  });

  const bad: [string, unknown][] = [
    ['empty body', {}],
    ['unknown property', { name: 'Ok', menuVersion: 1 }],
    ['name blank', { name: '  ' }],
    ['name too long', { name: 'x'.repeat(201) }],
    ['name a number', { name: 1 }],
    ['javascript: feedback', { feedbackUrl: 'javascript:alert(1)' }],
    ['an address too long', { feedbackUrl: `https://e.com/${'a'.repeat(2048)}` }],
    ['intro too long', { personalIntro: 'x'.repeat(2001) }],
    ['NUL in an intro', { organizationIntro: 'a\u0000b' }],
    ['domain a number', { ssoDomains: [5] }],
    ['too many domains', { ssoDomains: Array.from({ length: 101 }, (_, i) => `d${i}.example`) }],
    ['retention 0', { auditRetentionDays: 0 }],
    ['retention 3651', { auditRetentionDays: 3651 }],
    ['retention a fraction', { auditRetentionDays: 1.5 }],
    ['retention a text', { auditRetentionDays: '30' }],
    ['password sign-in a text', { passwordSignIn: 'false' }],
  ];
  it.each(bad)('refuses %s with 400', async (_label, body) => {
    const answer = await expectAdminRefused(db, () => patch('orgAdmin', body), 400);
    expect(answer.code).toBe('VALIDATION_ERROR');
  });
});

// The warning the Organization tab shows (and the start banner prints) when what the server
// sends people would carry an address only its own computer knows.
describe('the public address warning in GET /api/admin/organization', () => {
  /** The settings an administrator reads from an app with this configuration. */
  const settingsWith = async (env: NodeJS.ProcessEnv) => {
    const other = await createTestApp(env);
    const org = await createOrganization(other.db);
    const admin = await createUser(other.db, org.id, { role: 'admin' });
    const answer = await other.app.inject({
      method: 'GET',
      url: '/api/admin/organization',
      headers: (await signIn(other.app, admin)).headers,
    });
    expect(answer.statusCode).toBe(200);
    return answer.json<{ publicAddressWarning?: string }>();
  };

  it('warns that invitation links point at localhost while PUBLIC_URL is unset', async () => {
    const answer = await get('orgAdmin');
    expect(answer.json().publicAddressWarning).toBe(
      'Invitation links point at http://localhost:3000, which only this computer can open: set PUBLIC_URL to the address people use, such as https://links.example.com.',
    );
  });

  it('warns of mail sent from a local address, and of links on 127.0.0.1', async () => {
    const settings = await settingsWith({
      PUBLIC_URL: 'http://127.0.0.1:8080',
      SMTP_URL: 'smtp://mail.example.com:587',
    });
    expect(settings.publicAddressWarning).toBe(
      'Invitation links point at http://127.0.0.1:8080, which only this computer can open: set PUBLIC_URL to the address people use, such as https://links.example.com. ' +
        'Mail is sent from Signpost <signpost@127.0.0.1>, an address at this computer that other mail servers refuse or mark as spam: set MAIL_FROM, or PUBLIC_URL.',
    );
  });

  it('has no warning when links and mail carry the public address', async () => {
    const settings = await settingsWith({
      PUBLIC_URL: 'https://links.acme.example',
      SMTP_URL: 'smtp://mail.example.com:587',
    });
    expect(settings).not.toHaveProperty('publicAddressWarning');
    expect(settings).toMatchObject({ passwordSignIn: true });
  });
});
