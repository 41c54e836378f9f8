import { HOTP, Secret, TOTP } from 'otpauth';

// RFC 6238 with the parameters every authenticator app supports: HMAC-SHA-1, 6 digits,
// 30-second steps, one step of clock drift either way. The secret is 160 random bits (RFC
// 4226 recommends at least 128). The codes, the secret and the otpauth:// address come from
// the `otpauth` library (decision 0047); this module only fixes the parameters and keeps the
// step numbers, which the caller needs to refuse a code of a step already accepted.
export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
const ALGORITHM = 'SHA1';
const DRIFT_STEPS = 1;

export const base32Encode = (bytes: Uint8Array): string =>
  new Secret({ buffer: toBuffer(bytes) }).base32;

/** The bytes of a base32 text (spaces, padding and lower case allowed); throws on others. */
export const base32Decode = (text: string): Buffer =>
  Buffer.from(Secret.fromBase32(text.replace(/\s/g, '')).bytes);

/** A copy of the bytes in an ArrayBuffer of their own, as `Secret` wants. */
function toBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

/** 160 bits from the platform's cryptographic random source, in base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The time step of a moment: seconds since the epoch divided by the period. */
export const totpStep = (now = Date.now()): number =>
  TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now });

/** The code of a step, as the text an app shows (6 digits unless told). */
export function totpCode(secret: string, step: number, algorithm = 'sha1', digits = DIGITS) {
  return HOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: algorithm.toUpperCase(),
    digits,
    counter: step,
  });
}

/** Removes the spaces and dashes people type into codes. */
export const normalizeCode = (code: string) => code.replace(/[\s-]/g, '');

/**
 * The step whose code this is, looking one step back and one ahead for clock drift, or null.
 * The caller refuses a step it has already accepted (no replay within the window).
 */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  const token = normalizeCode(code);
  // Only digits reach the library: its comparison wants inputs of one byte length.
  if (!/^\d+$/.test(token) || token.length !== DIGITS) return null;
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: TOTP_PERIOD_SECONDS,
    timestamp: now,
    window: DRIFT_STEPS,
  });
  return delta === null ? null : totpStep(now) + delta;
}

/** The address authenticator apps read from a QR code (Key Uri Format). */
export function otpauthUrl(secret: string, issuer: string, account: string): string {
  return new TOTP({
    issuer,
    label: account,
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  }).toString();
}
