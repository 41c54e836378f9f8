import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { createAuditService, type AuditEntry } from '../audit/audit.service.ts';
import { createCommandLineRepository, type PersonRow } from './command-line.repository.ts';
import {
  checkEmail,
  checkFirstRunInput,
  checkPassword,
  createFirstOrganization,
  type FirstRunInput,
} from './setup.service.ts';

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Every entry of a command says where it came from; nobody signed in did it. */
const FROM_COMMAND_LINE = { via: 'command line' } as const;

/**
 * The administration commands of `npm run admin`, for scripted deploys and for getting back
 * in: each one is a transaction with its audit entry. They answer a sentence for the log.
 */
export function createCommandLineService(db: Database, config: Config) {
  const audit = createAuditService(db);

  /** Runs `work` on the person with this e-mail, locked, in one transaction. */
  async function withPerson<T>(
    email: string,
    work: (
      person: PersonRow,
      tx: Parameters<Parameters<Database['transaction']>[0]>[0],
    ) => Promise<T>,
  ): Promise<T> {
    const address = email.trim();
    checkEmail(address);
    return db.transaction(async (tx) => {
      const person = await createCommandLineRepository(tx).lockPersonByEmail(address);
      if (!person) throw notFound(`Nobody has the e-mail address ${address}.`);
      return work(person, tx);
    });
  }

  const entry = (person: PersonRow, action: AuditEntry['action']): AuditEntry => ({
    organizationId: person.organizationId,
    actor: null,
    action,
    target: { type: 'person', id: person.id, label: person.email },
    details: FROM_COMMAND_LINE,
  });

  return {
    async createOrganization(input: FirstRunInput): Promise<string> {
      const checked = checkFirstRunInput(input);
      const passwordHash = await hashPassword(checked.password, config.argon2);
      await db.transaction((tx) =>
        createFirstOrganization(
          tx,
          { ...checked, passwordHash },
          { actor: null, origin: {}, details: FROM_COMMAND_LINE },
        ),
      );
      return `Created the organization "${checked.organizationName}" with the administrator ${checked.email}. They can sign in now.`;
    },

    async resetPassword(email: string, password: string): Promise<string> {
      checkPassword(password);
      const passwordHash = await hashPassword(password, config.argon2);
      return withPerson(email, async (person, tx) => {
        const repository = createCommandLineRepository(tx);
        // A person still invited gets in with the password they were given.
        const activate = person.status === 'invited';
        await repository.update(person.id, {
          passwordHash,
          ...(activate ? { status: 'active' as const } : {}),
        });
        // Whoever knew the old password may have made sessions and tokens with it.
        const ended = await repository.endSessions(person.id);
        await audit.record(
          {
            ...entry(person, 'password.reset'),
            ...(activate ? { before: { status: 'invited' }, after: { status: 'active' } } : {}),
            details: {
              ...FROM_COMMAND_LINE,
              sessionsEnded: ended.sessions,
              accessTokensRevoked: ended.accessTokens,
            },
          },
          tx,
        );
        const note = person.status === 'disabled' ? ' They are disabled and cannot sign in.' : '';
        return `Set a new password for ${person.email}, ended ${plural(ended.sessions, 'session')} and revoked ${plural(ended.accessTokens, 'access token')}.${note}`;
      });
    },

    async makeAdmin(email: string): Promise<string> {
      return withPerson(email, async (person, tx) => {
        if (person.role === 'admin') return `${person.email} is already an administrator.`;
        await createCommandLineRepository(tx).update(person.id, { role: 'admin' });
        await audit.record(
          {
            ...entry(person, 'person.role-changed'),
            before: { role: person.role },
            after: { role: 'admin' },
          },
          tx,
        );
        return `${person.email} is now an administrator.`;
      });
    },

    async disable(email: string): Promise<string> {
      return withPerson(email, async (person, tx) => {
        if (person.status === 'disabled') return `${person.email} is already disabled.`;
        const repository = createCommandLineRepository(tx);
        if (
          person.role === 'admin' &&
          person.status === 'active' &&
          (await repository.otherActiveAdmins(person.organizationId, person.id)) === 0
        ) {
          throw conflict(
            `${person.email} is the last active administrator; make someone else an administrator first.`,
          );
        }
        await repository.update(person.id, { status: 'disabled' });
        // Sessions end and access tokens are revoked for good: enabling the person again
        // brings none of them back, as in the console.
        const ended = await repository.endSessions(person.id);
        await audit.record(
          {
            ...entry(person, 'person.disabled'),
            before: { status: person.status },
            after: { status: 'disabled' },
            details: {
              ...FROM_COMMAND_LINE,
              sessionsEnded: ended.sessions,
              accessTokensRevoked: ended.accessTokens,
            },
          },
          tx,
        );
        return `${person.email} is disabled; their sessions and access tokens no longer work.`;
      });
    },
  };
}
