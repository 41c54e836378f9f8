// The organization's settings as its administrators change them: who may, how values are
// normalized, what is refused and why (above all, turning password sign-in off when it would
// lock people out), and the audit entry with the values before and after.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { auditLog, identities, organizations } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import { createOrganization, createUser } from '../../../test/factories.ts';
import { adminSnapshot } from '../../../test/support/admin-call.ts';
import { createCast } from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';

const SSO_ORG = `Single sign-on org ${newId()}`;
const { services, db } = await createTestServices({
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
const { organization: service } = services;
const cast = await createCast(db);
const ORIGIN = { ip: '10.0.0.1', userAgent: 'Console' };

const admin = callerOf(cast.orgAdmin);

/** A call that must be refused with `status` and a message, changing nothing. */
async function refused(call: () => Promise<unknown>, status: number, message: string) {
  const before = await adminSnapshot(db);
  const error: unknown = await call().then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).statusCode).toBe(status);
  expect((error as AppError).message).toContain(message);
  expect(await adminSnapshot(db)).toEqual(before);
}

const orgRow = async (id: string) =>
  (await db.select().from(organizations).where(eq(organizations.id, id)))[0]!;
const entriesOf = (organizationId: string) =>
  db.select().from(auditLog).where(eq(auditLog.targetId, organizationId));
const scopeVersion = async (scope: string) => {
  const [row] = await selectRows<{ version: string }>(
    db,
    sql`SELECT version FROM menu_scopes WHERE scope = ${scope}`,
  );
  return Number(row?.version ?? 0);
};

/** A fresh organization and its administrator, for tests that change its settings. */
async function ownOrganization(name?: string) {
  const org = await createOrganization(db, name === undefined ? {} : { name });
  const person = await createUser(db, org.id, { role: 'admin' });
  return { org, me: callerOf(person), person };
}

describe('who may read and change the settings', () => {
  it.each(['teamEditor', 'teamMember', 'colleague'] as const)(
    'refuses %s both: 403, nothing changed',
    async (role) => {
      const me = callerOf(cast[role]);
      const message = 'Only an administrator of the organization can do that.';
      await refused(() => service.get(me), 403, message);
      await refused(() => service.update(me, ORIGIN, { name: 'Taken over' }), 403, message);
    },
  );

  it('lets an administrator of another organization read and change only their own', async () => {
    const before = await orgRow(cast.org.id);
    const outsider = callerOf(cast.outsider);
    expect((await service.get(outsider)).id).toBe(cast.otherOrg.id);
    const name = `Outside ${newId()}`;
    const changed = await service.update(outsider, ORIGIN, { name });
    expect(changed).toMatchObject({ id: cast.otherOrg.id, name });
    expect(await orgRow(cast.org.id)).toEqual(before);
  });
});

describe('the settings', () => {
  it('answers the defaults of a new organization', async () => {
    expect(await service.get(admin)).toEqual({
      id: cast.org.id,
      name: cast.org.name,
      feedbackUrl: null,
      consentUrl: null,
      intros: { personal: '', team: '', organization: '' },
      passwordSignIn: true,
      ssoDomains: [],
      auditRetentionDays: 365,
      ssoConfigured: false,
      // These services run without PUBLIC_URL: invitation links would point at localhost.
      publicAddressWarning: expect.stringMatching(/^Invitation links point at http:\/\/localhost:/),
    });
  });

  it('changes what is given, normalized, audited with only the values that changed, and the menu’s version moves', async () => {
    const { org, me, person } = await ownOrganization();
    const menuBefore = await scopeVersion(`o:${org.id}`);
    const changed = await service.update(me, ORIGIN, {
      feedbackUrl: 'forms.example.com/feedback',
      consentUrl: 'https://example.com/consent',
      teamIntro: '  Your team’s links.  ',
      ssoDomains: ['Example.COM', '@corp.example.com', 'example.com', 'bücher.de'],
      auditRetentionDays: 30,
    });
    expect(changed).toEqual({
      id: org.id,
      name: org.name,
      feedbackUrl: 'https://forms.example.com/feedback',
      consentUrl: 'https://example.com/consent',
      intros: { personal: '', team: 'Your team’s links.', organization: '' },
      passwordSignIn: true,
      ssoDomains: ['corp.example.com', 'example.com', 'xn--bcher-kva.de'],
      auditRetentionDays: 30,
      ssoConfigured: false,
      publicAddressWarning: expect.any(String),
    });
    expect(await orgRow(org.id)).toMatchObject({
      feedbackUrl: 'https://forms.example.com/feedback',
      teamIntro: 'Your team’s links.',
      auditRetentionDays: 30,
    });
    expect(await entriesOf(org.id)).toEqual([
      expect.objectContaining({
        action: 'organization.settings-changed',
        organizationId: org.id,
        actorId: person.id,
        targetType: 'organization',
        targetLabel: org.name,
        ip: ORIGIN.ip,
        userAgent: ORIGIN.userAgent,
        before: {
          feedbackUrl: null,
          consentUrl: null,
          teamIntro: '',
          ssoDomains: [],
          auditRetentionDays: 365,
        },
        after: {
          feedbackUrl: 'https://forms.example.com/feedback',
          consentUrl: 'https://example.com/consent',
          teamIntro: 'Your team’s links.',
          ssoDomains: ['corp.example.com', 'example.com', 'xn--bcher-kva.de'],
          auditRetentionDays: 30,
        },
      }),
    ]);
    expect(await scopeVersion(`o:${org.id}`)).toBeGreaterThan(menuBefore);
    const cleared = await service.update(me, ORIGIN, { feedbackUrl: '', consentUrl: null });
    expect(cleared).toMatchObject({ feedbackUrl: null, consentUrl: null });
  });

  it('writes no entry when the values given are the ones it has', async () => {
    const { org, me } = await ownOrganization();
    const same = await service.update(me, ORIGIN, { name: org.name, auditRetentionDays: 365 });
    expect(same).toMatchObject({ name: org.name, auditRetentionDays: 365 });
    expect(await entriesOf(org.id)).toEqual([]);
  });

  it.each([
    [
      'a javascript: feedback address',
      { feedbackUrl: 'javascript:alert(1)' },
      'body.feedbackUrl must be an http, https or mailto address',
    ],
    [
      'a mailto: consent address',
      { consentUrl: 'mailto:privacy@example.com' },
      'body.consentUrl must be an http or https address',
    ],
    [
      'spaces in an address',
      { feedbackUrl: 'https://exa mple.com' },
      'body.feedbackUrl must not contain spaces',
    ],
    [
      'a domain with a path',
      { ssoDomains: ['example.com/x'] },
      'body.ssoDomains: "example.com/x" is not a domain name',
    ],
    [
      'a domain without a dot',
      { ssoDomains: ['localhost'] },
      'body.ssoDomains: "localhost" is not a domain name',
    ],
    ['a domain with an @ inside', { ssoDomains: ['me@example.com'] }, 'is not a domain name'],
    ['a NUL in the name', { name: 'a\u0000b' }, 'body.name must not contain a NUL character'],
    ['a blank name', { name: ' \u200b ' }, 'The name cannot be blank'],
  ])('refuses %s: 400 naming the field, nothing changed', async (_what, body, message) => {
    await refused(() => service.update(admin, ORIGIN, body), 400, message);
  });
});

describe('turning password sign-in off', () => {
  it('is refused without a single sign-on provider for the organization: 409', async () => {
    await refused(
      () => service.update(admin, ORIGIN, { passwordSignIn: false }),
      409,
      'no single sign-on provider is configured for this organization',
    );
  });

  it('is refused to an administrator who has not signed in with single sign-on, then allowed', async () => {
    const { org, me, person } = await ownOrganization(SSO_ORG);
    expect((await service.get(me)).ssoConfigured).toBe(true);
    await refused(
      () => service.update(me, ORIGIN, { passwordSignIn: false }),
      409,
      'turning password sign-in off now would lock you out',
    );
    await db.insert(identities).values({
      id: newId(),
      userId: person.id,
      providerId: 'corp',
      issuer: 'http://127.0.0.1:9/corp',
      subject: newId(),
    });
    const off = await service.update(me, ORIGIN, { passwordSignIn: false });
    expect(off).toMatchObject({ passwordSignIn: false, ssoConfigured: true });
    expect((await orgRow(org.id)).passwordSignIn).toBe(false);
    expect(await entriesOf(org.id)).toEqual([
      expect.objectContaining({
        before: { passwordSignIn: true },
        after: { passwordSignIn: false },
      }),
    ]);
  });

  it('refuses renaming an organization its provider finds by name: 409 naming the provider', async () => {
    const { me } = await ownOrganization(SSO_ORG);
    await refused(
      () => service.update(me, ORIGIN, { name: 'Another name' }),
      409,
      'The single sign-on provider "corp" names this organization by its name',
    );
  });
});
