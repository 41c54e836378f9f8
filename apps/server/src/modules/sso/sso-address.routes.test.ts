// Single sign-on started on another address of the server than PUBLIC_URL (decision 0054):
// the provider returns to PUBLIC_URL, so the attempt starts there, where its cookie is set.
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { countRows } from '../../../test/factories.ts';
import { setUpSso } from '../../../test/support/sso-app.ts';
import { callback, followProvider, sessionTokenOf } from '../../../test/support/sso-browser.ts';

const { PUBLIC_URL, idp, app, db, person, me } = await setUpSso();

// The same app with its log kept, to read what it says at start and about proxies.
const lines: string[] = [];
const logged = await buildApp({
  config: { ...app.config, logLevel: 'info' },
  database: app.database,
  logStream: { write: (line: string) => lines.push(line) },
});
await logged.ready();
afterAll(() => logged.close());
const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

let address = 0;
const start = (url: string, host: string, target = app) =>
  target.inject({
    method: 'GET',
    url,
    headers: { host },
    remoteAddress: `10.54.0.${(address += 1)}`,
  });

describe('a single sign-on started on another address', () => {
  it('goes to the same start on PUBLIC_URL first, keeping returnTo, creating nothing', async () => {
    const before = await countRows(db, 'sso_attempts');
    const response = await start(
      '/api/auth/sso/acme/start?returnTo=%2Fcollections%3Fopen%3D1',
      '127.0.0.1:3000',
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(
      `${PUBLIC_URL}/api/auth/sso/acme/start?returnTo=%2Fcollections%3Fopen%3D1&moved=1`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await countRows(db, 'sso_attempts')).toBe(before);
  });

  it('never goes where the Host header says, and drops a returnTo off this site', async () => {
    for (const host of ['evil.example', 'signpost.test.evil.example', 'signpost.test:8080']) {
      const response = await start('/api/auth/sso/acme/start?returnTo=%2F%2Fevil.example', host);
      expect(response.statusCode, host).toBe(303);
      expect(response.headers.location, host).toBe(`${PUBLIC_URL}/api/auth/sso/acme/start?moved=1`);
    }
  });

  it('signs in end to end: the cookie is set where the provider returns', async () => {
    const who = person({ name: 'Ada From Loopback' });
    idp.nextLogin = who;
    const first = await start('/api/auth/sso/acme/start', '127.0.0.1:3000');
    const moved = new URL(String(first.headers.location));
    const second = await start(`${moved.pathname}${moved.search}`, moved.host);
    expect(second.statusCode).toBe(302);
    expect(String(second.headers.location)).toMatch(new RegExp(`^${idp.issuer}/`));
    const cookie = /signpost_sso=([^;]*)/.exec(String(second.headers['set-cookie']))?.[1] ?? null;
    expect(cookie).toMatch(/^[\w-]{43}$/);
    const back = await followProvider(String(second.headers.location), 'acme');
    expect(new URL(back).origin).toBe(PUBLIC_URL);
    const location = await callback(app, back, cookie);
    const token = sessionTokenOf(location);
    expect(token, location).not.toBeNull();
    expect((await me(token!)).json().user).toMatchObject({ name: 'Ada From Loopback' });
  });

  it('a start already sent to PUBLIC_URL is not sent again, and the log says why once', async () => {
    const host = '10.0.0.9:3000';
    const url = '/api/auth/sso/acme/start?moved=1';
    const first = await start(url, host, logged);
    expect(first.statusCode).toBe(302);
    expect(String(first.headers.location)).toMatch(new RegExp(`^${idp.issuer}/`));
    expect(String(first.headers['set-cookie'])).toMatch(/^signpost_sso=/);
    expect((await start(url, host, logged)).statusCode).toBe(302);
    const warnings = records().filter((r) => /arrived on another address/.test(String(r.msg)));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, host, publicUrl: PUBLIC_URL });
  });

  it('an unknown provider ends on the login screen of the address it was asked on', async () => {
    const response = await start('/api/auth/sso/nobody/start', '127.0.0.1:3000');
    expect(response.statusCode).toBe(302);
    expect(String(response.headers.location)).toMatch(/^\/#sso-error\?code=SSO_UNKNOWN_PROVIDER/);
  });

  it('a start on PUBLIC_URL goes straight to the provider', async () => {
    const response = await start('/api/auth/sso/acme/start', 'signpost.test');
    expect(response.statusCode).toBe(302);
    expect(String(response.headers.location)).toMatch(new RegExp(`^${idp.issuer}/`));
  });

  it('the login buttons point at PUBLIC_URL, wherever the login screen was opened', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/methods',
      headers: { host: '127.0.0.1:3000' },
    });
    const urls = (response.json() as { loginUrl?: string }[]).flatMap((m) => m.loginUrl ?? []);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(/^http:\/\/signpost\.test\/api\/auth\/sso\//);
  });

  it('says at start where single sign-on returns, naming each callback', () => {
    const [line, ...more] = records().filter((r) =>
      /^single sign-on returns to/.test(String(r.msg)),
    );
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      publicUrl: PUBLIC_URL,
      msg: expect.stringContaining(`${PUBLIC_URL}/api/auth/sso/acme/callback`),
    });
    expect(line!.callbacks).toContainEqual({
      provider: 'acme',
      redirectUri: `${PUBLIC_URL}/api/auth/sso/acme/callback`,
    });
  });
});
