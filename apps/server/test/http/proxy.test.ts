import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../app.ts';

// Only the address limit can block here: spraying many e-mails from one client.
const LIMITS = {
  LOGIN_MAX_PER_ADDRESS: '3',
  LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS: '1000',
  LOGIN_MAX_PER_ACCOUNT: '1000',
};

const byHops = await createTestApp({ ...LIMITS, TRUST_PROXY: '1' });
const byList = await createTestApp({ ...LIMITS, TRUST_PROXY: '10.0.0.5, 192.168.0.0/16' });
const noProxy = await createTestApp(LIMITS);

const forged = () =>
  `${randomInt(1, 223)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** A failed sign-in with a new e-mail each time and a new address written by the client. */
function spray(ctx: TestContext, n: number, proxy: string, client: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/sessions',
    remoteAddress: proxy,
    // The client writes any address it likes; the proxy appends the one it saw.
    headers: { 'x-forwarded-for': `${forged()}, ${forged()}, ${client}` },
    payload: { type: 'email-password', email: `nobody${n}@example.test`, password: 'guess' },
  });
}

async function statuses(ctx: TestContext, proxy: string, client: string) {
  const result: number[] = [];
  for (let n = 0; n < 5; n += 1) result.push((await spray(ctx, n, proxy, client)).statusCode);
  return result;
}

describe('the client address behind a reverse proxy', () => {
  it('with TRUST_PROXY=1, rotating X-Forwarded-For does not lift the address limit', async () => {
    expect(await statuses(byHops, '127.0.0.1', '203.0.113.7')).toEqual([401, 401, 401, 429, 429]);
    // Another client behind the same proxy has its own count.
    expect((await spray(byHops, 99, '127.0.0.1', '203.0.113.8')).statusCode).toBe(401);
  });

  it('with a list of proxies, rotating X-Forwarded-For does not lift the address limit', async () => {
    expect(await statuses(byList, '10.0.0.5', '203.0.113.7')).toEqual([401, 401, 401, 429, 429]);
    // Through a second listed proxy, the client is still the one the proxies saw.
    expect((await spray(byList, 98, '192.168.3.4', '203.0.113.7')).statusCode).toBe(429);
    expect((await spray(byList, 99, '10.0.0.5', '203.0.113.8')).statusCode).toBe(401);
  });

  it('believes no X-Forwarded-For from an address that is not a listed proxy', async () => {
    // A caller reaching the server directly counts as itself, whatever it writes.
    expect(await statuses(byList, '198.51.100.9', '203.0.113.50')).toEqual([
      401, 401, 401, 429, 429,
    ]);
    expect((await spray(byList, 99, '198.51.100.10', '198.51.100.9')).statusCode).toBe(401);
  });

  it('believes no X-Forwarded-For at all without TRUST_PROXY', async () => {
    expect(await statuses(noProxy, '198.51.100.20', '203.0.113.7')).toEqual([
      401, 401, 401, 429, 429,
    ]);
  });
});

describe('HTTPS detection behind a reverse proxy', () => {
  const hsts = async (ctx: TestContext, remoteAddress: string) =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/methods',
        remoteAddress,
        headers: { 'x-forwarded-proto': 'https' },
      })
    ).headers['strict-transport-security'];

  it('takes X-Forwarded-Proto from the trusted proxy only', async () => {
    expect(await hsts(byHops, '127.0.0.1')).toMatch(/max-age=\d+/);
    expect(await hsts(byList, '10.0.0.5')).toMatch(/max-age=\d+/);
    expect(await hsts(byList, '192.168.200.1')).toMatch(/max-age=\d+/);
    expect(await hsts(byList, '198.51.100.9')).toBeUndefined();
    expect(await hsts(noProxy, '127.0.0.1')).toBeUndefined();
  });
});
