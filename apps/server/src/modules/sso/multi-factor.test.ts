import { describe, expect, it } from 'vitest';
import { provesMultiFactor } from './multi-factor.ts';

describe('what an ID token must say to count as multi-factor (decision 0048)', () => {
  it.each([
    [{ amr: ['mfa'] }],
    [{ amr: ['pwd', 'otp'] }],
    [{ amr: ['pwd', 'sms'] }],
    [{ amr: ['hwk', 'pin'] }],
    [{ amr: ['swk', 'face'] }],
    [{ acr: 'urn:acme:mfa' }],
  ])('accepts %j', (claims) => {
    expect(provesMultiFactor(claims, ['urn:acme:mfa'])).toBe(true);
  });

  it.each([
    [{}],
    [{ amr: [] }],
    [{ amr: 'mfa' }],
    [{ amr: [{ mfa: true }] }],
    [{ amr: ['pwd'] }],
    [{ amr: ['otp'] }],
    [{ amr: ['hwk', 'swk'] }],
    [{ amr: ['pwd', 'pin', 'kba'] }],
    [{ amr: ['user', 'rba', 'geo', 'mca', 'wia'] }],
    [{ amr: ['MFA'] }],
    [{ acr: 'urn:acme:password' }],
    [{ acr: ['urn:acme:mfa'] }],
  ])('refuses %j', (claims) => {
    expect(provesMultiFactor(claims, ['urn:acme:mfa'])).toBe(false);
  });

  it('trusts no acr that the provider is not configured with', () => {
    expect(provesMultiFactor({ acr: 'urn:acme:mfa' }, [])).toBe(false);
  });
});
