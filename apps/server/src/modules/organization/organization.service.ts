import { domainToASCII } from 'node:url';
import type { OrganizationSettings, UpdateOrganizationBody } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { cleanName } from '../../lib/names.ts';
import { normalizeUrl } from '../../lib/urls.ts';
import type { AdminAccess } from '../access/admin-access.ts';
import { auditOf, changes, type AuditService } from '../audit/audit.service.ts';
import type {
  OrganizationRepository,
  OrganizationSettingsChange,
  OrganizationSettingsRow,
} from './organization.repository.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';

export interface OrganizationDeps {
  db: Database;
  organization: OrganizationRepository;
  adminAccess: AdminAccess;
  audit: AuditService;
  /** The single sign-on providers of the server: their id and the organization they serve. */
  ssoProviders: { id: string; organization: string }[];
  /**
   * What the Organization tab warns of: invitation links or mail that would carry a local
   * address (`lib/public-address.ts`, from the server's configuration); null for nothing.
   */
  publicAddressWarning?: string | null;
}

// A domain name as DNS spells it: labels of letters, digits and inner hyphens, at least
// two of them, the last not all digits.
const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** No stored text can hold a NUL character: PostgreSQL refuses it. */
function text(value: string, field: string): string {
  if (value.includes('\u0000')) throw badRequest(`body.${field} must not contain a NUL character`);
  return value;
}

/** A footer address: http or https only; null or blank for none. */
function footerUrl(value: string | null | undefined, field: string) {
  if (value === undefined) return undefined;
  if (value === null || value.trim() === '') return null;
  const url = normalizeUrl(value, `body.${field}`);
  if (!/^https?:/i.test(url)) throw badRequest(`body.${field} must be an http or https address`);
  return url;
}

/** E-mail domains, lower case, without a leading @, each valid, without repeats. */
function domains(values: string[] | undefined) {
  if (values === undefined) return undefined;
  const result = new Set<string>();
  for (const raw of values) {
    const trimmed = text(raw, 'ssoDomains').trim().replace(/^@/, '').replace(/\.$/, '');
    const ascii = domainToASCII(trimmed.toLowerCase());
    // Letters, digits, dots and hyphens only: domainToASCII would drop a path or a port.
    if (/[^\p{L}\p{N}.-]/u.test(trimmed) || !ascii || !DOMAIN.test(ascii)) {
      throw badRequest(
        `body.ssoDomains: "${raw.slice(0, 100)}" is not a domain name such as example.com`,
      );
    }
    result.add(ascii);
  }
  return [...result].sort();
}

function toSettings(
  row: OrganizationSettingsRow,
  ssoConfigured: boolean,
  publicAddressWarning: string | null,
): OrganizationSettings {
  return {
    id: row.id,
    name: row.name,
    feedbackUrl: row.feedbackUrl,
    consentUrl: row.consentUrl,
    intros: {
      personal: row.personalIntro,
      team: row.teamIntro,
      organization: row.organizationIntro,
    },
    passwordSignIn: row.passwordSignIn,
    ssoDomains: row.ssoDomains,
    auditRetentionDays: row.auditRetentionDays,
    ssoConfigured,
    ...(publicAddressWarning ? { publicAddressWarning } : {}),
  };
}

export function createOrganizationService({
  db,
  organization: repo,
  adminAccess: admin,
  audit,
  ssoProviders,
  publicAddressWarning = null,
}: OrganizationDeps) {
  /** The providers people of this organization sign in with (by its id or exact name). */
  const providersOf = (row: { id: string; name: string }) =>
    ssoProviders.filter((p) => p.organization === row.id || p.organization === row.name);

  return {
    async get(me: AuthContext): Promise<OrganizationSettings> {
      admin.admin(me);
      const row = await repo.settings(db, me.organizationId);
      if (!row) throw notFound('Organization not found');
      return toSettings(row, providersOf(row).length > 0, publicAddressWarning);
    },

    /**
     * Changes the settings given. Turning password sign-in off is refused (409) when it
     * would lock people out: without a single sign-on provider nobody could sign in, and
     * an administrator without a single sign-on identity would lock themselves out.
     */
    async update(
      me: AuthContext,
      origin: AuditOrigin,
      body: UpdateOrganizationBody,
    ): Promise<OrganizationSettings> {
      const by = auditOf(me, origin);
      admin.admin(me);
      const change: OrganizationSettingsChange = {
        name: body.name === undefined ? undefined : cleanName(text(body.name, 'name')),
        feedbackUrl: footerUrl(body.feedbackUrl, 'feedbackUrl'),
        consentUrl: footerUrl(body.consentUrl, 'consentUrl'),
        personalIntro: body.personalIntro && text(body.personalIntro, 'personalIntro').trim(),
        teamIntro: body.teamIntro && text(body.teamIntro, 'teamIntro').trim(),
        organizationIntro:
          body.organizationIntro && text(body.organizationIntro, 'organizationIntro').trim(),
        passwordSignIn: body.passwordSignIn,
        ssoDomains: domains(body.ssoDomains),
        auditRetentionDays: body.auditRetentionDays,
      };
      return db.transaction(async (tx) => {
        const before = await repo.settings(tx, me.organizationId, true);
        if (!before) throw notFound('Organization not found');
        const providers = providersOf(before);
        if (change.passwordSignIn === false && before.passwordSignIn) {
          if (providers.length === 0) {
            throw conflict(
              'Password sign-in cannot be turned off: no single sign-on provider is ' +
                'configured for this organization, so nobody could sign in.',
            );
          }
          const ids = providers.map((p) => p.id);
          if (!(await repo.hasSsoIdentity(tx, me.userId, ids))) {
            throw conflict(
              'Sign in with single sign-on yourself first: turning password sign-in off ' +
                'now would lock you out of the organization.',
            );
          }
        }
        // A provider that names the organization by its name would stop finding it.
        if (change.name !== undefined && change.name !== before.name) {
          const byName = providers.find((p) => p.organization === before.name);
          if (byName) {
            throw conflict(
              `The single sign-on provider "${byName.id}" names this organization by its ` +
                `name; set its organization to the id ${before.id} in the server's ` +
                'configuration before renaming, or people could no longer sign in with it.',
            );
          }
        }
        const diff = changes(before as unknown as Record<string, unknown>, change);
        if (diff) {
          await repo.update(tx, me.organizationId, change);
          await audit.record(tx, {
            ...by,
            action: 'organization.settings-changed',
            target: { type: 'organization', id: me.organizationId, label: before.name },
            before: diff.before,
            after: diff.after,
          });
        }
        const after = await repo.settings(tx, me.organizationId);
        return toSettings(after!, providers.length > 0, publicAddressWarning);
      });
    },
  };
}
export type OrganizationService = ReturnType<typeof createOrganizationService>;
