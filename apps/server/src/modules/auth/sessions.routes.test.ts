// "Where you're signed in" over HTTP: its statuses and the answer's shape. Which sessions
// are listed and ended, and who may end them, is auth.service.test.ts.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser, PASSWORD } from '../../../test/factories.ts';
import { describeUserAgent } from './user-agent.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);

const FIREFOX_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function signInWith(user: { email: string }, userAgent: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sessions',
    headers: { 'user-agent': userAgent },
    payload: { type: 'email-password', email: user.email, password: PASSWORD },
  });
  expect(response.statusCode).toBe(201);
  const { token } = response.json<{ token: string }>();
  return { token, headers: { authorization: `Bearer ${token}` } };
}

const status = async (headers: Record<string, string>) =>
  (await app.inject({ method: 'GET', url: '/api/auth/sessions/current', headers })).statusCode;

describe("where you're signed in", () => {
  it('requires authentication', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/sessions' })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'DELETE', url: '/api/auth/sessions/others' })).statusCode,
    ).toBe(401);
    const one = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/aaaaaaaaaaaaaaaaaaaaa',
    });
    expect(one.statusCode).toBe(401);
  });

  it("lists one's sessions with 200, each in the answer's shape, never a token", async () => {
    const user = await createUser(db, org.id);
    const mac = await signInWith(user, FIREFOX_MAC);
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: mac.headers,
    });
    expect(response.statusCode).toBe(200);
    const items = response.json().items as Array<Record<string, unknown>>;
    expect(Object.keys(items[0]!).sort()).toEqual(
      [
        'browser',
        'createdAt',
        'current',
        'device',
        'expiresAt',
        'id',
        'lastActiveAt',
        'method',
        'userAgent',
      ].sort(),
    );
    expect(response.body).not.toContain(mac.token);
  });

  it("ends one of one's sessions with 204, and answers 404 for someone else's", async () => {
    const user = await createUser(db, org.id);
    const laptop = await signInWith(user, FIREFOX_MAC);
    await signInWith(user, CHROME_ANDROID);
    const list = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: laptop.headers,
    });
    const phoneId = list.json().items.find((s: { current: boolean }) => !s.current).id;
    const stranger = await signInWith(await createUser(db, org.id), FIREFOX_MAC);
    const foreign = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${phoneId}`,
      headers: stranger.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'NOT_FOUND' });
    const end = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${phoneId}`,
      headers: laptop.headers,
    });
    expect(end.statusCode).toBe(204);
  });

  it('ends every other session at once with 204; their tokens get 401', async () => {
    const user = await createUser(db, org.id);
    const here = await signInWith(user, FIREFOX_MAC);
    const other = await signInWith(user, CHROME_ANDROID);
    const response = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/others',
      headers: here.headers,
    });
    expect(response.statusCode).toBe(204);
    expect(await status(other.headers)).toBe(401);
  });

  it('refuses an id that is not an id with 400', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signInWith(user, FIREFOX_MAC);
    const response = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/nope',
      headers,
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('describeUserAgent', () => {
  it.each([
    [FIREFOX_MAC, 'Firefox', 'macOS'],
    [CHROME_ANDROID, 'Chrome', 'Android'],
    [SAFARI_IPHONE, 'Safari', 'iPhone'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge',
      'Windows',
    ],
    ['curl/8.5.0', 'curl', 'Unknown device'],
    [null, 'Unknown browser', 'Unknown device'],
  ])('reads %j', (ua, browser, device) => {
    expect(describeUserAgent(ua)).toEqual({ browser, device });
  });
});
