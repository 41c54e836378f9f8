// Codes of an authenticator app for tests (otpauth, the library the server's factor uses),
// and a person with the second factor turned on through the API.
import * as OTPAuth from 'otpauth';
import { expect } from 'vitest';
import type { App } from '../../src/app.ts';

const PERIOD = 30;

/** The 30-second step of now, plus `offset` steps. */
export const stepNow = (offset = 0) => Math.floor(Date.now() / 1000 / PERIOD) + offset;

/** The 6-digit code of a base32 secret at a step. */
export function codeAt(secret: string, step: number): string {
  const totp = new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
  });
  return totp.generate({ timestamp: step * PERIOD * 1000 });
}

/** A well-formed code that is not valid anywhere near now. */
export function wrongCodeFor(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((o) => codeAt(secret, stepNow(o))));
  for (let i = 0; ; i += 1) {
    const code = String(i).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

/**
 * Turns the second factor on for the person of `headers` (a fresh sign-in session) with the
 * code of the step before now; the next codes (now, now + 1) are left for the test.
 */
export async function turnOnSecondFactor(app: App, headers: Record<string, string>) {
  const post = (url: string, payload?: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/api/auth/second-factor${url}`, headers, payload });
  const setup = await post('/setup');
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const enable = await post('/enable', { code: codeAt(secret, stepNow(-1)) });
  expect(enable.statusCode, enable.body).toBe(200);
  return { secret, recoveryCodes: enable.json<{ recoveryCodes: string[] }>().recoveryCodes };
}
