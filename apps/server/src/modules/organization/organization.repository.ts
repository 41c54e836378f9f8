import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';

export interface OrganizationSettingsRow {
  id: string;
  name: string;
  feedbackUrl: string | null;
  consentUrl: string | null;
  personalIntro: string;
  teamIntro: string;
  organizationIntro: string;
  passwordSignIn: boolean;
  ssoDomains: string[];
  auditRetentionDays: number;
}

export type OrganizationSettingsChange = Partial<Omit<OrganizationSettingsRow, 'id'>>;

const COLUMNS: Record<keyof OrganizationSettingsChange, string> = {
  name: 'name',
  feedbackUrl: 'feedback_url',
  consentUrl: 'consent_url',
  personalIntro: 'personal_intro',
  teamIntro: 'team_intro',
  organizationIntro: 'organization_intro',
  passwordSignIn: 'password_sign_in',
  ssoDomains: 'sso_domains',
  auditRetentionDays: 'audit_retention_days',
};

export function createOrganizationRepository() {
  return {
    /** The organization's settings; held until the transaction ends when `lock`. */
    async settings(db: Executor, organizationId: string, lock = false) {
      const rows = await selectRows<OrganizationSettingsRow>(
        db,
        sql`SELECT id, name, feedback_url AS "feedbackUrl", consent_url AS "consentUrl",
                   personal_intro AS "personalIntro", team_intro AS "teamIntro",
                   organization_intro AS "organizationIntro",
                   password_sign_in AS "passwordSignIn", sso_domains AS "ssoDomains",
                   audit_retention_days AS "auditRetentionDays"
            FROM organizations WHERE id = ${organizationId} ${lock ? sql`FOR UPDATE` : sql``}`,
      );
      return rows[0];
    },

    async update(db: Executor, organizationId: string, change: OrganizationSettingsChange) {
      const sets: SQL[] = [];
      for (const [key, value] of Object.entries(change)) {
        const column = COLUMNS[key as keyof OrganizationSettingsChange];
        if (value === undefined) continue;
        const param = Array.isArray(value)
          ? sql`ARRAY[${sql.join(
              value.map((v) => sql`${v}`),
              sql`, `,
            )}]::text[]`
          : sql`${value}`;
        sets.push(sql`${sql.raw(column)} = ${value === null ? sql`NULL` : param}`);
      }
      if (sets.length === 0) return;
      await db.execute(
        sql`UPDATE organizations SET ${sql.join(sets, sql`, `)}, updated_at = now()
            WHERE id = ${organizationId}`,
      );
    },

    /** Whether a person has an identity linked with one of these providers. */
    async hasSsoIdentity(db: Executor, userId: string, providerIds: string[]): Promise<boolean> {
      if (providerIds.length === 0) return false;
      const ids = sql.join(
        providerIds.map((id) => sql`${id}`),
        sql`, `,
      );
      const rows = await selectRows(
        db,
        sql`SELECT 1 FROM identities
            WHERE user_id = ${userId} AND provider_id IN (${ids}) LIMIT 1`,
      );
      return rows.length > 0;
    },
  };
}
export type OrganizationRepository = ReturnType<typeof createOrganizationRepository>;
