import type { Config } from '../../config.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { COMMAND_LINE, type AuditEntry, type AuditService } from '../audit/audit.service.ts';
import { commandLineActor, FROM_COMMAND_LINE, type PeopleRules } from '../people/people.rules.ts';
import type { CommandLineRepository, PersonRow } from './command-line.repository.ts';
import {
  checkEmail,
  checkFirstRunInput,
  checkPassword,
  type FirstRunInput,
  type SetupService,
} from './setup.service.ts';

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export interface CommandLineDeps {
  db: Database;
  config: Config;
  commandLine: CommandLineRepository;
  setup: Pick<SetupService, 'createFirstOrganization'>;
  /** Role and status change as in the console, with the command line as the actor. */
  peopleRules: Pick<PeopleRules, 'setField'>;
  audit: AuditService;
}

/**
 * The administration commands of `npm run admin`, for scripted deploys and for getting back
 * in: each one is a transaction with its audit entry. They answer a sentence for the log.
 */
export function createCommandLineService({
  db,
  config,
  commandLine: repository,
  setup,
  peopleRules,
  audit,
}: CommandLineDeps) {
  /** Runs `work` on the person with this e-mail, locked, in one transaction. */
  async function withPerson<T>(
    email: string,
    work: (person: PersonRow, tx: Transaction) => Promise<T>,
  ): Promise<T> {
    const address = email.trim();
    checkEmail(address);
    return db.transaction(async (tx) => {
      const person = await repository.lockPersonByEmail(tx, address);
      if (!person) throw notFound(`Nobody has the e-mail address ${address}.`);
      return work(person, tx);
    });
  }

  /** Every entry of a command says where it came from; nobody signed in did it. */
  const entry = (person: PersonRow, action: AuditEntry['action']): AuditEntry => ({
    organizationId: person.organizationId,
    actor: COMMAND_LINE,
    action,
    target: { type: 'person', id: person.id, label: person.email },
    details: FROM_COMMAND_LINE,
  });

  return {
    async createOrganization(input: FirstRunInput): Promise<string> {
      const checked = checkFirstRunInput(input);
      const passwordHash = await hashPassword(checked.password, config.argon2);
      await db.transaction((tx) =>
        setup.createFirstOrganization(
          tx,
          { ...checked, passwordHash },
          { actor: 'command line', origin: {}, details: FROM_COMMAND_LINE },
        ),
      );
      return `Created the organization "${checked.organizationName}" with the administrator ${checked.email}. They can sign in now.`;
    },

    async resetPassword(email: string, password: string): Promise<string> {
      checkPassword(password);
      const passwordHash = await hashPassword(password, config.argon2);
      return withPerson(email, async (person, tx) => {
        // A person still invited gets in with the password they were given.
        const activate = person.status === 'invited';
        await repository.update(tx, person.id, {
          passwordHash,
          ...(activate ? { status: 'active' as const } : {}),
        });
        // Whoever knew the old password may have made sessions and tokens with it.
        const ended = await repository.endSessions(tx, person.id);
        await audit.record(tx, {
          ...entry(person, 'password.reset'),
          ...(activate ? { before: { status: 'invited' }, after: { status: 'active' } } : {}),
          details: {
            ...FROM_COMMAND_LINE,
            sessionsEnded: ended.sessions,
            accessTokensRevoked: ended.accessTokens,
          },
        });
        const note = person.status === 'disabled' ? ' They are disabled and cannot sign in.' : '';
        return `Set a new password for ${person.email}, ended ${plural(ended.sessions, 'session')} and revoked ${plural(ended.accessTokens, 'access token')}.${note}`;
      });
    },

    /** Makes a person an administrator, as the console's change of role does. */
    async makeAdmin(email: string): Promise<string> {
      return withPerson(email, async (person, tx) => {
        if (person.role === 'admin') return `${person.email} is already an administrator.`;
        await peopleRules.setField(
          tx,
          commandLineActor(person.organizationId),
          [person],
          'role',
          'admin',
        );
        return `${person.email} is now an administrator.`;
      });
    },

    /**
     * Disables a person as the console does: not the last active administrator; their
     * sessions end and their access tokens are revoked, for good (enabling them again
     * brings none of them back).
     */
    async disable(email: string): Promise<string> {
      return withPerson(email, async (person, tx) => {
        if (person.status === 'disabled') return `${person.email} is already disabled.`;
        await peopleRules.setField(
          tx,
          commandLineActor(person.organizationId),
          [person],
          'status',
          'disabled',
        );
        return `${person.email} is disabled; their sessions and access tokens no longer work.`;
      });
    },
  };
}
export type CommandLineService = ReturnType<typeof createCommandLineService>;
