// Whether an ID token says the provider checked more than one factor (decision 0048).

/**
 * RFC 8176 authentication method references by kind of factor. Two different kinds make a
 * multi-factor sign-in; `mfa` says so by itself. Methods that are no factor of their own
 * (`user` presence, `rba` risk analysis, `geo`, `mca` channels, `wia`) count for nothing,
 * and an `otp` or `hwk` alone is one factor: a code sent by e-mail is an `otp` too.
 */
const KINDS: Record<string, 'knowledge' | 'possession' | 'inherence'> = {
  pwd: 'knowledge',
  pin: 'knowledge',
  kba: 'knowledge',
  otp: 'possession',
  hwk: 'possession',
  swk: 'possession',
  sc: 'possession',
  sms: 'possession',
  tel: 'possession',
  pop: 'possession',
  fpt: 'inherence',
  face: 'inherence',
  iris: 'inherence',
  retina: 'inherence',
  vbm: 'inherence',
};

/**
 * True when the ID token's `amr` says multi-factor (`mfa`, or methods of two different
 * kinds), or its `acr` is one the provider's configuration lists as multi-factor.
 * Anything missing, malformed or unknown is not multi-factor.
 */
export function provesMultiFactor(
  claims: Record<string, unknown>,
  mfaAcrValues: readonly string[],
): boolean {
  const acr = claims.acr;
  if (typeof acr === 'string' && mfaAcrValues.includes(acr)) return true;
  const amr = claims.amr;
  if (!Array.isArray(amr)) return false;
  const methods = amr.filter((m): m is string => typeof m === 'string');
  if (methods.includes('mfa')) return true;
  const kinds = new Set(methods.map((m) => KINDS[m]).filter(Boolean));
  return kinds.size >= 2;
}
