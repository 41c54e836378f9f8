// The second factor over HTTP: its statuses, answers and headers, and the sign-in that asks for
// the code. What setting it up, turning it on and off do, and who may, is
// second-factor.service.test.ts.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { createOrganization, createUser, PASSWORD, signIn } from '../../../test/factories.ts';
import { totpCode, totpStep } from './totp.ts';

const { app, db } = await createTestApp({ LOGIN_MAX_PER_ADDRESS: '1000' });
const org = await createOrganization(db);

let address = 0;
const nextIp = () => `10.9.${Math.floor(address / 250)}.${(address++ % 250) + 1}`;

const login = (payload: Record<string, unknown>, ip = nextIp()) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/sessions',
    remoteAddress: ip,
    payload: { type: 'email-password', password: PASSWORD, ...payload },
  });

const post = (url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `/api/auth/second-factor${url}`, headers, payload });

/** A person with the second factor on; returns the secret and the step its code used. */
async function withSecondFactor() {
  const user = await createUser(db, org.id);
  const { headers } = await signIn(app, user);
  const setup = await post('/setup', headers);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const step = totpStep();
  const enable = await post('/enable', headers, { code: totpCode(secret, step) });
  expect(enable.statusCode).toBe(200);
  return { user, headers, secret, step };
}

/** A well-formed code that is not valid anywhere near now. */
function wrongCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((o) => totpCode(secret, totpStep() + o)));
  for (let i = 0; ; i += 1) {
    const code = String(i).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

describe('second factor (TOTP)', () => {
  it('requires authentication', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/second-factor' })).statusCode).toBe(
      401,
    );
    for (const url of ['/setup', '/enable', '/disable']) {
      expect((await post(url, {}, { code: '123456' })).statusCode, url).toBe(401);
    }
  });

  it('answers the status, the secret and the recovery codes with 200, uncached', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const status = await app.inject({ method: 'GET', url: '/api/auth/second-factor', headers });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({ available: true, enabled: false, recoveryCodesLeft: 0 });
    const setup = await post('/setup', headers);
    expect(setup.statusCode).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    expect(Object.keys(setup.json()).sort()).toEqual(['otpauthUrl', 'secret']);
    const enable = await post('/enable', headers, {
      code: totpCode(setup.json().secret, totpStep()),
    });
    expect(enable.statusCode).toBe(200);
    expect(enable.headers['cache-control']).toBe('no-store');
    expect(enable.json().recoveryCodes).toHaveLength(10);
    // Set up again once on: 409.
    expect((await post('/setup', headers)).statusCode).toBe(409);
  });

  it('answers a wrong code to turn it on with 400 SECOND_FACTOR_INVALID', async () => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    const { secret } = (await post('/setup', headers)).json<{ secret: string }>();
    const wrong = await post('/enable', headers, { code: wrongCode(secret) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('SECOND_FACTOR_INVALID');
  });

  it('asks the password sign-in for the code: 401 SECOND_FACTOR_REQUIRED, then 201 with it', async () => {
    const { user, secret, step } = await withSecondFactor();
    const alone = await login({ email: user.email });
    expect(alone.statusCode).toBe(401);
    expect(alone.json().code).toBe('SECOND_FACTOR_REQUIRED');
    const withCode = await login({ email: user.email, totp: totpCode(secret, step + 1) });
    expect(withCode.statusCode).toBe(201);
  });

  it('turns off with 204; a wrong password is 400, and turning off again 409', async () => {
    const a = await withSecondFactor();
    const wrong = await post('/disable', a.headers, { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('SECOND_FACTOR_INVALID');
    expect((await post('/disable', a.headers, { password: PASSWORD })).statusCode).toBe(204);
    expect((await post('/disable', a.headers, { password: PASSWORD })).statusCode).toBe(409);
  });

  it('answers an access token that sets it up with 403', async () => {
    const user = await createUser(db, org.id);
    const session = await signIn(app, user);
    const created = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: session.headers,
      payload: { name: 'script' },
    });
    const pat = { authorization: `Bearer ${created.json().token}` };
    expect((await post('/setup', pat)).statusCode).toBe(403);
  });

  it.each([
    [{ code: 123456 }, 'needs to be text'],
    [{ code: '1'.repeat(17) }, 'at most 16 characters'],
    [{ code: '123456', extra: true }, 'unknown property'],
  ])('refuses the enable body %j with 400', async (payload, message) => {
    const user = await createUser(db, org.id);
    const { headers } = await signIn(app, user);
    await post('/setup', headers);
    const response = await post('/enable', headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });
});
