import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import type { InvitationMailState } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';

export interface InvitationRecord {
  id: string;
  userId: string;
  organizationId: string;
  organizationName: string;
  name: string;
  email: string;
  status: string;
  expiresAt: Date | string;
  usable: boolean;
  /** False in an organization that signs in with single sign-on only. */
  passwordSignIn: boolean;
}

/** A person's open invitation, for their page in the console. */
export interface OpenInvitationRecord {
  createdAt: Date;
  expiresAt: Date;
  mailState: InvitationMailState | null;
  mailStateAt: Date | null;
}

/** SQL of invitation links: only the SHA-256 of each token is stored. */
export function createInvitationsRepository() {
  return {
    /**
     * Revokes a person's open invitations, then stores a new one, its mail `queued` when one
     * is to be sent; returns its id.
     */
    async replace(
      db: Executor,
      values: {
        organizationId: string;
        userId: string;
        tokenHash: string;
        createdBy: string | null;
        expiresAt: Date;
        mailState: 'queued' | null;
      },
    ): Promise<string> {
      await db.execute(
        sql`UPDATE invitations SET revoked_at = now()
            WHERE user_id = ${values.userId} AND kind = 'invitation'
              AND used_at IS NULL AND revoked_at IS NULL`,
      );
      const id = newId();
      await db.execute(
        sql`INSERT INTO invitations (id, organization_id, user_id, kind, token_hash, created_by,
                                     expires_at, mail_state, mail_state_at)
            VALUES (${id}, ${values.organizationId}, ${values.userId}, 'invitation',
                    ${values.tokenHash}, ${values.createdBy}, ${values.expiresAt.toISOString()},
                    ${values.mailState}, CASE WHEN ${values.mailState}::text IS NULL THEN NULL
                                              ELSE now() END)`,
      );
      return id;
    },

    /**
     * Writes what became of an invitation's mail; with `from`, only while it is in that
     * state. False when nothing was written.
     */
    async setMailState(
      db: Executor,
      id: string,
      state: InvitationMailState | null,
      from?: InvitationMailState,
    ): Promise<boolean> {
      const rows = await selectRows(
        db,
        sql`UPDATE invitations
            SET mail_state = ${state},
                mail_state_at = CASE WHEN ${state}::text IS NULL THEN NULL ELSE now() END
            WHERE id = ${id} AND kind = 'invitation'
              AND (${from ?? null}::text IS NULL OR mail_state = ${from ?? null})
            RETURNING id`,
      );
      return rows.length > 0;
    },

    /** A person's open invitation (neither used nor replaced, expired or not), if any. */
    async open(
      db: Executor,
      organizationId: string,
      userId: string,
    ): Promise<OpenInvitationRecord | null> {
      const rows = await selectRows<OpenInvitationRecord>(
        db,
        sql`SELECT created_at AS "createdAt", expires_at AS "expiresAt",
                   mail_state AS "mailState", mail_state_at AS "mailStateAt"
            FROM invitations
            WHERE organization_id = ${organizationId} AND user_id = ${userId}
              AND kind = 'invitation' AND used_at IS NULL AND revoked_at IS NULL
            ORDER BY created_at DESC, id DESC LIMIT 1`,
      );
      return rows[0] ?? null;
    },

    /** The invitation of a token hash with its person, and whether it can still be used. */
    async find(db: Executor, tokenHash: string): Promise<InvitationRecord | null> {
      const rows = await selectRows<InvitationRecord>(
        db,
        sql`SELECT i.id, i.user_id AS "userId", i.organization_id AS "organizationId",
                   o.name AS "organizationName", u.name, u.email, u.status,
                   i.expires_at AS "expiresAt", o.password_sign_in AS "passwordSignIn",
                   (i.used_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
                    AND u.status = 'invited') AS usable
            FROM invitations i
            JOIN users u ON u.id = i.user_id
            JOIN organizations o ON o.id = i.organization_id
            WHERE i.token_hash = ${tokenHash} AND i.kind = 'invitation'`,
      );
      return rows[0] ?? null;
    },

    /**
     * Uses an invitation: true for exactly one caller while it is usable, however many
     * try at once (the row is updated only while unused).
     */
    async use(db: Executor, id: string): Promise<boolean> {
      const rows = await selectRows(
        db,
        sql`UPDATE invitations SET used_at = now()
            WHERE id = ${id} AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
            RETURNING id`,
      );
      return rows.length > 0;
    },

    /** Makes the invited person active with their chosen password; false if not invited. */
    async activate(db: Executor, userId: string, passwordHash: string): Promise<boolean> {
      const rows = await selectRows(
        db,
        sql`UPDATE users SET status = 'active', password_hash = ${passwordHash}, updated_at = now()
            WHERE id = ${userId} AND status = 'invited' RETURNING id`,
      );
      return rows.length > 0;
    },
  };
}
export type InvitationsRepository = ReturnType<typeof createInvitationsRepository>;
