import { and, eq, ne } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { identities, teamMemberships, teams, users } from '../../db/schema/index.ts';
import { DEMO_EMAIL, DEMO_NAME, DEMO_PASSWORD, seedDemoIfEmpty } from '../../db/seed/demo.ts';
import { createTestApp, freshPostgres } from '../../../test/app.ts';
import { countRows, signIn } from '../../../test/factories.ts';
import { codeAt, stepNow, turnOnSecondFactor } from '../../../test/support/second-factor.ts';

const PUBLIC_URL = 'http://demo.test';

// Like `npm start`: a migrated database with the demo data, then the app on it.
const pg = process.env.SIGNPOST_TEST_DB === 'postgres' ? await freshPostgres() : null;
const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL });
const database = await openDatabase({ url: pg?.url ?? null, dataDir: null, poolSize: 4 });
await migrate(database);
await seedDemoIfEmpty(database, config.argon2);
const app = await buildApp({ config, database });
await app.ready();
afterAll(async () => {
  await app.close();
  await database.close();
  await pg?.drop();
});
const db = database.db;

/** A browser on the demo site: keeps cookies and follows redirects that stay on it. */
function browser() {
  const jar = new Map<string, string>();
  async function go(method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
    const target = new URL(url, PUBLIC_URL);
    const response = await app.inject({
      method,
      url: `${target.pathname}${target.search}`,
      headers: {
        host: 'demo.test',
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    const setCookie = response.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      const text = value.join('=');
      if (name && /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name.trim());
      else if (name) jar.set(name.trim(), text);
    }
    return response;
  }
  /** Follows redirects while they stay on this site's server side (not the fragment). */
  async function follow(method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
    let response = await go(method, url, form);
    for (
      let hop = 0;
      hop < 10 && response.statusCode >= 300 && response.statusCode < 400;
      hop += 1
    ) {
      const location = String(response.headers.location);
      if (location.includes('#')) return { response, location };
      response = await go('GET', location);
    }
    return { response, location: String(response.headers.location ?? '') };
  }
  return { go, follow };
}

async function startDemoSignIn() {
  const b = browser();
  const { response, location } = await b.follow('GET', '/api/auth/sso/northwind-demo/start');
  expect(response.statusCode, location).toBe(200);
  const action = /action="([^"]+)\/login"/.exec(response.body)?.[1];
  expect(action).toMatch(/^\/demo-idp\/interaction\/[\w-]+$/);
  return { b, page: response, action: action! };
}

describe('the demo identity provider', () => {
  it('is offered as a sign-in method out of the box', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/methods' });
    expect(response.json()).toContainEqual({
      type: 'sso-oidc-id-token',
      name: 'Northwind SSO (demo)',
      loginUrl: `${PUBLIC_URL}/api/auth/sso/northwind-demo/start`,
    });
  });

  it('shows its sign-in form under the strict policy (no script)', async () => {
    const { page } = await startDemoSignIn();
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('signpost-demo');
    expect(page.body).not.toMatch(/<script/i);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
  });

  it('signs a demo person in, linked to their existing account', async () => {
    const { b, action } = await startDemoSignIn();
    const { location } = await b.follow('POST', `${action}/login`, {
      email: DEMO_EMAIL,
      password: DEMO_PASSWORD,
    });
    const token = /^\/#session\?token=([\w-]+)&handover=[\w-]+$/.exec(location)?.[1];
    expect(token, location).toBeDefined();
    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.json()).toMatchObject({ user: { email: DEMO_EMAIL, name: DEMO_NAME } });
    const [dana] = await db.select().from(users).where(eq(users.email, DEMO_EMAIL));
    const linked = await db.select().from(identities).where(eq(identities.userId, dana!.id));
    expect(linked).toMatchObject([{ providerId: 'northwind-demo', subject: dana!.id }]);
    expect(await countRows(db, 'users', { column: 'email', value: DEMO_EMAIL })).toBe(1);

    // Signing out also offers the provider's sign-out, which has its own page.
    const out = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    const logoutUrl = new URL(out.json().logoutUrl);
    expect(logoutUrl.href.startsWith(`${PUBLIC_URL}/demo-idp/session/end`)).toBe(true);
    const question = await b.go('GET', logoutUrl.href);
    expect(question.statusCode).toBe(200);
    expect(question.body).toContain('Sign out of Northwind SSO too?');
    expect(question.body).not.toMatch(/<script/i);
  });

  it('asks a demo person with a second factor for its code after the provider (decision 0048)', async () => {
    const [colleague] = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(ne(users.email, DEMO_EMAIL), eq(users.role, 'member')))
      .limit(1);
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sessions',
      payload: { type: 'email-password', email: colleague!.email, password: DEMO_PASSWORD },
    });
    const headers = { authorization: `Bearer ${signedIn.json().token}` };
    const { secret } = await turnOnSecondFactor(app, headers);
    const sessionsBefore = await countRows(db, 'sessions');

    const { b, action } = await startDemoSignIn();
    const { response, location } = await b.follow('POST', `${action}/login`, {
      email: colleague!.email,
      password: DEMO_PASSWORD,
    });
    const ticket = /^\/#sso-second-factor\?ticket=([\w-]+)$/.exec(location)?.[1];
    expect(ticket, location).toBeDefined();
    expect(await countRows(db, 'sessions')).toBe(sessionsBefore);
    const cookie = ([] as string[])
      .concat(response.headers['set-cookie'] ?? [])
      .find((line) => line.startsWith('signpost_sso_2fa='));
    const finished = await app.inject({
      method: 'POST',
      url: '/api/auth/sso/second-factor',
      headers: { cookie: String(cookie).split(';')[0]! },
      payload: { ticket, totp: codeAt(secret, stepNow()) },
    });
    expect(finished.statusCode, finished.body).toBe(201);
    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: { authorization: `Bearer ${finished.json().token}` },
    });
    expect(me.json().user.email).toBe(colleague!.email);
  });

  it('creates a new hire at their first sign-in and finds them again at the next', async () => {
    const signInAs = async (email: string) => {
      const { b, action } = await startDemoSignIn();
      const { location } = await b.follow('POST', `${action}/login`, {
        email,
        password: DEMO_PASSWORD,
      });
      const token = /^\/#session\?token=([\w-]+)&handover=[\w-]+$/.exec(location)?.[1];
      expect(token, location).toBeDefined();
      const me = await app.inject({
        method: 'GET',
        url: '/api/auth/sessions/current',
        headers: { authorization: `Bearer ${token}` },
      });
      return me.json<{ user: { id: string; name: string }; organization: { name: string } }>();
    };
    const email = 'newhire3@example.com';
    expect(await countRows(db, 'users', { column: 'email', value: email })).toBe(0);

    const first = await signInAs(email);
    expect(first).toMatchObject({
      user: { name: 'Ingrid Berg' },
      organization: { name: 'Northwind Labs' },
    });
    expect(await countRows(db, 'users', { column: 'email', value: email })).toBe(1);
    const [identity] = await db
      .select()
      .from(identities)
      .where(eq(identities.userId, first.user.id));
    expect(identity).toMatchObject({ providerId: 'northwind-demo', subject: 'new-hire-3' });
    expect(
      await countRows(db, 'collections', { column: 'owner_user_id', value: first.user.id }),
    ).toBe(1);

    const second = await signInAs(email);
    expect(second.user.id).toBe(first.user.id);
    expect(await countRows(db, 'users', { column: 'email', value: email })).toBe(1);
  });

  it('lists itself among the organization’s providers for groups, and gives a new hire the teams their groups map to', async () => {
    const { headers } = await signIn(app, { email: DEMO_EMAIL }, DEMO_PASSWORD);
    const listed = await app.inject({ method: 'GET', url: '/api/admin/sso-groups', headers });
    expect(listed.json()).toEqual({
      items: [
        { providerId: 'northwind-demo', name: expect.any(String), claim: null, mappings: [] },
      ],
    });
    const [design] = await db.select().from(teams).where(eq(teams.name, 'Design'));
    const mapped = await app.inject({
      method: 'PUT',
      url: '/api/admin/sso-groups/northwind-demo',
      headers,
      payload: {
        claim: 'groups',
        mappings: [{ group: 'dept-design', teamId: design!.id, role: 'member', admin: false }],
      },
    });
    expect(mapped.statusCode, mapped.body).toBe(200);

    // Mateo Silva is in dept-design at the demo provider.
    const { b, action } = await startDemoSignIn();
    const { location } = await b.follow('POST', `${action}/login`, {
      email: 'newhire2@example.com',
      password: DEMO_PASSWORD,
    });
    expect(location).toMatch(/^\/#session\?token=/);
    const [hire] = await db.select().from(users).where(eq(users.email, 'newhire2@example.com'));
    const memberships = await db
      .select({ teamId: teamMemberships.teamId, fromSignIn: teamMemberships.fromSignIn })
      .from(teamMemberships)
      .where(eq(teamMemberships.userId, hire!.id));
    expect(memberships).toEqual([{ teamId: design!.id, fromSignIn: true }]);
  });

  it('refuses a new hire with a wrong password', async () => {
    const { b, action } = await startDemoSignIn();
    const response = await b.go('POST', `${action}/login`, {
      email: 'newhire4@example.com',
      password: 'not the password',
    });
    expect(response.statusCode).toBe(401);
    expect(await countRows(db, 'users', { column: 'email', value: 'newhire4@example.com' })).toBe(
      0,
    );
  });

  it('refuses a wrong password on its form, opening no session', async () => {
    const { b, action } = await startDemoSignIn();
    const before = await countRows(db, 'sessions');
    const response = await b.go('POST', `${action}/login`, {
      email: DEMO_EMAIL,
      password: 'not the password',
    });
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('The e-mail or password is not correct.');
    expect(await countRows(db, 'sessions')).toBe(before);
  });

  it('ends on the login screen when the person cancels', async () => {
    const { b, action } = await startDemoSignIn();
    const { location } = await b.follow('POST', `${action}/abort`);
    expect(location).toMatch(/^\/#sso-error\?code=SSO_ACCESS_DENIED&message=/);
  });
});

describe('without the demo', () => {
  it('offers no demo provider when a provider is configured or there is no demo data', async () => {
    const configured = await createTestApp({
      OIDC_PROVIDERS: JSON.stringify([
        {
          id: 'corp',
          name: 'Corp',
          issuer: 'https://login.corp.example',
          clientId: 'a',
          clientSecret: 'b',
          organization: 'Corp',
          allowedDomains: ['corp.example'],
        },
      ]),
    });
    const names = (await configured.app.inject({ method: 'GET', url: '/api/auth/methods' }))
      .json()
      .map((m: { name: string }) => m.name);
    expect(names).toEqual(['E-mail and password', 'Corp']);
    const empty = await createTestApp();
    const methods = await empty.app.inject({ method: 'GET', url: '/api/auth/methods' });
    expect(methods.json()).toEqual([{ type: 'email-password', name: 'E-mail and password' }]);
    expect(
      (await empty.app.inject({ method: 'GET', url: '/demo-idp/.well-known/openid-configuration' }))
        .statusCode,
    ).toBe(404);
  });
});
