import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// RFC 6238 with the parameters every authenticator app supports: HMAC-SHA-1, 6 digits,
// 30-second steps. The secret is 160 random bits (RFC 4226 recommends at least 128).
export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const newTotpSecret = (): string => base32Encode(randomBytes(20));

/** The time step of a moment: seconds since the epoch divided by the period. */
export const totpStep = (now = Date.now()): number => Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);

/** HOTP (RFC 4226) of a step, as the 6-digit text an app shows. */
export function totpCode(secret: string, step: number, algorithm = 'sha1', digits = DIGITS) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac(algorithm, base32Decode(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** Removes the spaces and dashes people type into codes. */
export const normalizeCode = (code: string) => code.replace(/[\s-]/g, '');

/**
 * The step whose code this is, looking one step back and one ahead for clock drift, or null.
 * The caller refuses a step it has already accepted (no replay within the window).
 */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  const typed = Buffer.from(normalizeCode(code));
  if (typed.length !== DIGITS) return null;
  const current = totpStep(now);
  let found: number | null = null;
  for (const step of [current - 1, current, current + 1]) {
    const expected = Buffer.from(totpCode(secret, step));
    // Every candidate is compared in full, so timing tells nothing about which matched.
    if (timingSafeEqual(expected, typed) && found === null) found = step;
  }
  return found;
}

/** The address authenticator apps read from a QR code (Key Uri Format). */
export function otpauthUrl(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
