import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

// The package's enum is a const enum, which isolated modules cannot read.
const ARGON2ID = 2 as Algorithm;

/** argon2id with the configured (OWASP) parameters. */
export function hashPassword(password: string, params: Argon2Params): Promise<string> {
  return hash(password, { ...params, algorithm: ARGON2ID });
}

export class PasswordVerifier {
  private dummy: Promise<string> | null = null;

  constructor(private readonly params: Argon2Params) {}

  /**
   * Checks a password against a stored hash. Without a hash (unknown e-mail, or an account
   * that signs in only by single sign-on) it checks against a dummy hash, so that the answer
   * takes about as long and tells nothing.
   */
  async verify(storedHash: string | null, password: string): Promise<boolean> {
    if (storedHash === null) {
      this.dummy ??= hashPassword(randomBytes(16).toString('hex'), this.params);
      await verify(await this.dummy, password).catch(() => false);
      return false;
    }
    return verify(storedHash, password).catch(() => false);
  }
}
