import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  matchTotp,
  newTotpSecret,
  otpauthUrl,
  totpCode,
  totpStep,
} from './totp.ts';

// RFC 6238 appendix B, SHA-1 with the 20-byte ASCII secret, 8 digits.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('matches the test vector at T=%i', (seconds, code) => {
    expect(totpCode(RFC_SECRET, totpStep(seconds * 1000), 'sha1', 8)).toBe(code);
  });

  it('round-trips base32 and makes 160-bit secrets', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
  });

  it('accepts the current code and one step either side, and nothing further', () => {
    const secret = newTotpSecret();
    const now = Date.now();
    const step = totpStep(now);
    for (const offset of [-1, 0, 1]) {
      expect(matchTotp(secret, totpCode(secret, step + offset), now)).toBe(step + offset);
    }
    for (const offset of [-3, -2, 2, 3]) {
      const code = totpCode(secret, step + offset);
      // A far code may collide with a near one by chance (1 in a million).
      const near = [-1, 0, 1].map((o) => totpCode(secret, step + o));
      if (!near.includes(code)) expect(matchTotp(secret, code, now)).toBeNull();
    }
    expect(matchTotp(secret, '12345', now)).toBeNull();
    expect(matchTotp(secret, 'abcdef', now)).toBeNull();
    // Characters of more than one byte are refused, not compared (the comparison would throw).
    expect(matchTotp(secret, '１２３４５６', now)).toBeNull();
    expect(matchTotp(secret, `${totpCode(secret, step).slice(0, 5)}é`, now)).toBeNull();
    expect(
      matchTotp(
        secret,
        `${totpCode(secret, step).slice(0, 3)} ${totpCode(secret, step).slice(3)}`,
        now,
      ),
    ).toBe(step);
  });

  it('reads back what it writes: the secret, and the codes of an app', () => {
    const secret = newTotpSecret();
    const url = new URL(otpauthUrl(secret, 'Signpost', 'ada@example.com'));
    expect(url.searchParams.get('secret')).toBe(secret);
    // 1_700_000_000 s is 20 s into its step: 15 s later the next step has begun, and the
    // code of the step before still matches (one step of drift).
    const step = totpStep(1_700_000_000_000);
    expect(totpStep(1_700_000_015_000)).toBe(step + 1);
    expect(totpCode(secret, step)).toMatch(/^\d{6}$/);
    expect(matchTotp(secret, totpCode(secret, step), 1_700_000_015_000)).toBe(step);
  });

  it('writes the otpauth:// address authenticator apps read', () => {
    const url = new URL(otpauthUrl('JBSWY3DPEHPK3PXP', 'Signpost', 'ada@example.com'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Signpost:ada@example.com');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Signpost',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
