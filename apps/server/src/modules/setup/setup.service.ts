import { createHash, randomInt } from 'node:crypto';
import {
  isBlank,
  LIMITS,
  textProblem,
  withoutBidiControls,
  type CompleteSetupBody,
  type SetupStatusResponse,
} from '@signpost/contract';
import type { Config } from '../../config.ts';
import type { Database, Executor } from '../../db/client.ts';
import { conflict, fieldRefused, forbidden } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/passwords.ts';
import {
  COMMAND_LINE,
  type AuditActor,
  type AuditService,
  type AuditTarget,
} from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { ThrottleService } from '../throttle/throttle.service.ts';
import type { SetupRepository } from './setup.repository.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

/** How long a printed setup code works; every start of the server prints a new one. */
export const SETUP_CODE_HOURS = 24;

// No 0/O, 1/I/L: the code is read from a log and typed by hand.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A new code such as `K7QM-3XWD-9RHT` (12 symbols, about 59 bits). */
export function generateSetupCode(): string {
  const symbols = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return [0, 4, 8].map((start) => symbols.slice(start, start + 4).join('')).join('-');
}

/** A code as typed: any case, dashes and spaces ignored. */
export const normalizeSetupCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');
const hashSetupCode = (code: string) =>
  createHash('sha256').update(normalizeSetupCode(code)).digest('hex');

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Control characters, lone surrogates, noncharacters: the rules of every request text
// (decision 0049), here for the command line too, which has no schema.
const CONTROL = { test: (value: string) => textProblem(value) !== null };

export const ALREADY_SET_UP =
  'Signpost is already set up: an organization exists. Sign in instead.';

const WRONG_CODE =
  "The setup code is not right, or has expired. Use the code in the server's log from its last start.";

export interface FirstRunInput {
  organizationName: string;
  name: string;
  email: string;
  password: string;
}

/**
 * Checks what the first run is given, for the setup screen and the command line alike;
 * throws 400 with a sentence that names the field. Returns the values as they are stored.
 */
export function checkFirstRunInput(input: FirstRunInput): FirstRunInput {
  // Without bidirectional controls, as every text of a request (decision 0081): the command
  // line passes its arguments here without the request check.
  const organizationName = withoutBidiControls(input.organizationName).trim();
  const name = withoutBidiControls(input.name).trim();
  const email = withoutBidiControls(input.email).trim();
  if (isBlank(organizationName))
    throw fieldRefused('organizationName', "Enter the organization's name.");
  if (organizationName.length > LIMITS.name) {
    throw fieldRefused(
      'organizationName',
      `The organization's name can have at most ${LIMITS.name} characters: shorten it.`,
    );
  }
  if (CONTROL.test(organizationName)) {
    throw fieldRefused(
      'organizationName',
      "The organization's name cannot contain control characters.",
    );
  }
  if (isBlank(name)) throw fieldRefused('name', "Enter the administrator's name.");
  if (name.length > LIMITS.name) {
    throw fieldRefused(
      'name',
      `The administrator's name can have at most ${LIMITS.name} characters: shorten it.`,
    );
  }
  if (CONTROL.test(name)) {
    throw fieldRefused('name', "The administrator's name cannot contain control characters.");
  }
  checkEmail(email);
  checkPassword(input.password);
  return { organizationName, name, email, password: input.password };
}

export function checkEmail(email: string): void {
  if (email.length > LIMITS.email || !EMAIL.test(email) || CONTROL.test(email)) {
    throw fieldRefused('email', 'Enter a valid e-mail address, such as name@example.com.');
  }
}

export function checkPassword(password: string): void {
  const { min, max } = LIMITS.password;
  if (password.length < min || password.length > max) {
    throw fieldRefused('password', `The password needs ${min} to ${max} characters.`);
  }
}

export interface CreatedOrganization {
  organizationId: string;
  userId: string;
}

/** How the first organization's audit entries tell who made it and from where. */
export interface FirstRunRecord {
  /** The new administrator (the setup screen), or the command line. */
  actor: 'admin' | 'command line';
  origin: AuditOrigin;
  details: Record<string, unknown>;
  /** The setup screen's code, checked again under the lock (it may have expired). */
  codeHash?: string;
}

export interface SetupDeps {
  db: Database;
  config: Config;
  setup: SetupRepository;
  throttle: ThrottleService;
  audit: AuditService;
  auth: Pick<AuthService, 'startSession' | 'signedIn'>;
}

/** The first run: the setup code, the setup screen, and the first organization. */
export function createSetupService({
  db,
  config,
  setup: repository,
  throttle,
  audit,
  auth,
}: SetupDeps) {
  const throttleLimits = (ip: string) => {
    const { windowSeconds, maxPerAccountAndAddress, maxPerAccount, accountBlockSeconds } =
      config.login;
    return [
      {
        key: `setup:ip:${ip}`,
        max: maxPerAccountAndAddress,
        windowSeconds,
        blockSeconds: windowSeconds,
      },
      { key: 'setup:any', max: maxPerAccount, windowSeconds, blockSeconds: accountBlockSeconds },
    ];
  };

  /**
   * Creates the organization and its first administrator in `tx`, with their audit entries,
   * after taking the first-run lock; 409 when an organization exists. Every setup code goes.
   */
  async function createFirstOrganization(
    tx: Executor,
    input: FirstRunInput & { passwordHash: string },
    record: FirstRunRecord,
  ): Promise<CreatedOrganization> {
    await repository.lock(tx);
    if (await repository.organizationExists(tx)) throw conflict(ALREADY_SET_UP);
    if (record.codeHash !== undefined && !(await repository.codeIsLive(tx, record.codeHash))) {
      throw forbidden(WRONG_CODE);
    }
    const organizationId = newId();
    await repository.insertOrganization(tx, organizationId, input.organizationName);
    const userId = await repository.insertAdmin(tx, {
      organizationId,
      name: input.name,
      email: input.email,
      passwordHash: input.passwordHash,
    });
    await repository.deleteCodes(tx);

    const actor: AuditActor =
      record.actor === 'admin'
        ? { id: userId, name: input.name, email: input.email }
        : COMMAND_LINE;
    const base = { organizationId, actor, ...record.origin, details: record.details };
    const organization: AuditTarget = {
      type: 'organization',
      id: organizationId,
      label: input.organizationName,
    };
    const person: AuditTarget = { type: 'person', id: userId, label: input.email };
    await audit.record(tx, { ...base, action: 'organization.created', target: organization });
    await audit.record(tx, {
      ...base,
      action: 'person.created',
      target: person,
      after: { name: input.name, email: input.email, role: 'admin', status: 'active' },
    });
    await audit.record(tx, { ...base, action: 'setup.completed', target: organization });
    return { organizationId, userId };
  }

  return {
    createFirstOrganization,

    /**
     * At start: while no organization exists, makes a new one-time code, stores its hash
     * with an expiry and returns it to be printed; null once an organization exists.
     */
    async issueCode(): Promise<string | null> {
      if (await repository.organizationExists(db)) return null;
      await repository.deleteExpiredCodes(db);
      const code = generateSetupCode();
      await repository.insertCode(
        db,
        hashSetupCode(code),
        new Date(Date.now() + SETUP_CODE_HOURS * 3600_000),
      );
      return code;
    },

    async status(): Promise<SetupStatusResponse> {
      return { required: !(await repository.organizationExists(db)) };
    },

    /** The setup screen: creates the organization and its administrator, and signs them in. */
    async complete(body: CompleteSetupBody, origin: Required<AuditOrigin>): Promise<string> {
      if (await repository.organizationExists(db)) throw conflict(ALREADY_SET_UP);
      const input = checkFirstRunInput(body);
      // Counted before the code is checked, forgiven when it was right, like a sign-in.
      const ip = origin.ip ?? 'unknown';
      const limits = throttleLimits(ip);
      await throttle.admit(limits, 'setup attempts');
      const codeHash = hashSetupCode(body.setupCode);
      if (!(await repository.codeIsLive(db, codeHash))) {
        // Another setup may have completed since the first look, taking every code with it:
        // that is the answer, not a wrong code.
        if (await repository.organizationExists(db)) throw conflict(ALREADY_SET_UP);
        await audit.record(db, {
          organizationId: null,
          actor: null,
          action: 'setup.refused',
          ...origin,
          details: { reason: 'wrong or expired setup code' },
        });
        throw forbidden(WRONG_CODE);
      }
      await throttle.forgive(limits.map((limit) => limit.key));
      const passwordHash = await hashPassword(input.password, config.argon2);
      return db.transaction(async (tx) => {
        const { userId } = await createFirstOrganization(
          tx,
          { ...input, passwordHash },
          { actor: 'admin', origin, details: { via: 'setup screen' }, codeHash },
        );
        const { token } = await auth.startSession(tx, userId, ip, origin.userAgent ?? undefined);
        await auth.signedIn(tx, userId);
        return token;
      });
    },
  };
}
export type SetupService = ReturnType<typeof createSetupService>;
