import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../../db/client.ts';
import type { ScaledIcon } from './image.ts';

/** One stored image of an icon, as image.ts makes it: its size (square), type and bytes. */
export type IconImage = ScaledIcon;

/** A link whose icon is due to be looked for, as a round takes it. */
export interface DueLink {
  linkId: string;
  organizationId: string;
  url: string;
  state: 'pending' | 'found' | 'none' | 'uploaded';
  tries: number;
}

/** The path a link's `icon` holds, and the menu carries (decision 0068). */
export const iconPath = (id: string) => `/api/icons/${id}`;

/**
 * An icon's id: a digest of its organization and its images. The same images in one
 * organization are one row; the address of an icon never shows other bytes, so it is cached
 * for a year; and without the organization's id, which no other organization sees, nobody can
 * tell from a guessed address whether an organization links to a site.
 */
export function iconId(organizationId: string, images: IconImage[]): string {
  const hash = createHash('sha256').update(organizationId).update('\0');
  for (const image of [...images].sort((a, b) => a.size - b.size)) {
    hash.update(`${image.size}:${image.contentType}:${image.bytes.length}\0`).update(image.bytes);
  }
  return hash.digest('base64url').slice(0, 32);
}

async function keep(tx: Executor, organizationId: string, images: IconImage[]): Promise<string> {
  const id = iconId(organizationId, images);
  await tx.execute(
    sql`INSERT INTO icons (id, organization_id) VALUES (${id}, ${organizationId})
        ON CONFLICT (id) DO NOTHING`,
  );
  for (const image of images) {
    await tx.execute(
      sql`INSERT INTO icon_images (icon_id, size, content_type, body)
          VALUES (${id}, ${image.size}, ${image.contentType}, ${image.bytes})
          ON CONFLICT (icon_id, size) DO NOTHING`,
    );
  }
  return id;
}

/** Sets the link's `icon` only when it changes: an unchanged icon bumps no menu. */
async function showOnLink(tx: Executor, linkId: string, icon: string | null): Promise<void> {
  await tx.execute(
    sql`UPDATE links SET icon = ${icon} WHERE id = ${linkId} AND icon IS DISTINCT FROM ${icon}`,
  );
}

export function createIconsRepository() {
  return {
    /**
     * Takes up to `limit` due links for a round and moves them `leaseSeconds` ahead, so that
     * another instance's round, or the next one here, does not take them again while this one
     * works (rows another transaction holds are skipped, not waited for). A round that dies
     * leaves them due again when the lease ends.
     */
    async takeDue(
      db: Executor,
      limit: number,
      leaseSeconds: number,
      takenBy: string | null = null,
    ): Promise<DueLink[]> {
      return selectRows<DueLink>(
        db,
        sql`UPDATE link_icons i SET due_at = now() + make_interval(secs => ${leaseSeconds}),
                   tries = i.tries + 1, taken_by = ${takenBy}
            FROM (SELECT link_id FROM link_icons WHERE due_at <= now()
                  ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
            WHERE i.link_id = due.link_id
            RETURNING i.link_id AS "linkId", i.organization_id AS "organizationId", i.url,
                      i.state, i.tries`,
      );
    },

    /**
     * Gives back links a round took and did not get to (its time was up): due at once again,
     * the take not counted. Links whose lease was taken over meanwhile (an address changed,
     * so due at once already) are left alone.
     */
    async release(db: Executor, links: readonly DueLink[]): Promise<void> {
      if (links.length === 0) return;
      const ids = sql.join(
        links.map((link) => sql`${link.linkId}`),
        sql`, `,
      );
      await db.execute(
        sql`UPDATE link_icons SET taken_by = NULL, due_at = now(), tries = greatest(tries - 1, 0)
            WHERE link_id IN (${ids}) AND due_at > now()`,
      );
    },

    /**
     * Keeps an icon found for a link's address and shows it on the link, unless the address
     * changed meanwhile or someone uploaded an icon: then nothing is written. Next due at
     * `refreshSeconds` from now. Answers whether it was kept.
     */
    async found(
      db: Executor,
      link: DueLink,
      images: IconImage[],
      foundAt: string,
      refreshSeconds: number,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const current = await selectRows<{ state: string }>(
          tx,
          sql`SELECT state FROM link_icons WHERE link_id = ${link.linkId} AND url = ${link.url}
              FOR UPDATE`,
        );
        if (current.length === 0 || current[0]?.state === 'uploaded') return false;
        const id = await keep(tx, link.organizationId, images);
        await tx.execute(
          sql`UPDATE link_icons SET state = 'found', icon_id = ${id}, found_at = ${foundAt},
                     failure = NULL, tries = 0, checked_at = now(),
                     taken_by = NULL, due_at = now() + make_interval(secs => ${refreshSeconds})
              WHERE link_id = ${link.linkId}`,
        );
        await showOnLink(tx, link.linkId, iconPath(id));
        return true;
      });
    },

    /**
     * Notes that no icon was found this time, and when to look again. An icon found before
     * stays (a site down for an hour keeps its icon); a link that never had one is `none`.
     */
    async notFound(
      db: Executor,
      link: DueLink,
      failure: string,
      retrySeconds: number,
    ): Promise<void> {
      await db.execute(
        sql`UPDATE link_icons
            SET state = CASE WHEN state = 'pending' THEN 'none' ELSE state END,
                failure = ${failure.slice(0, 500)}, checked_at = now(),
                taken_by = NULL, due_at = now() + make_interval(secs => ${retrySeconds})
            WHERE link_id = ${link.linkId} AND url = ${link.url} AND state <> 'uploaded'`,
      );
    },

    /** Keeps an uploaded icon for a link and shows it; it is not looked for again. */
    async uploaded(
      tx: Executor,
      linkId: string,
      organizationId: string,
      images: IconImage[],
    ): Promise<string> {
      const id = await keep(tx, organizationId, images);
      await tx.execute(
        sql`UPDATE link_icons SET state = 'uploaded', icon_id = ${id}, found_at = NULL,
                   failure = NULL, tries = 0, checked_at = now(), taken_by = NULL, due_at = 'infinity'
            WHERE link_id = ${linkId}`,
      );
      await showOnLink(tx, linkId, iconPath(id));
      return id;
    },

    /**
     * Drops an uploaded icon: the link shows its letter until the site's icon is found,
     * which is looked for at once. Answers false when the link had no uploaded icon.
     */
    async removeUpload(tx: Executor, linkId: string): Promise<boolean> {
      const rows = await selectRows<{ url: string }>(
        tx,
        sql`UPDATE link_icons
            SET state = CASE WHEN url ~* '^https?://' THEN 'pending' ELSE 'none' END,
                icon_id = NULL, tries = 0, failure = NULL,
                taken_by = NULL, due_at = CASE WHEN url ~* '^https?://' THEN now() ELSE 'infinity' END
            WHERE link_id = ${linkId} AND state = 'uploaded'
            RETURNING url`,
      );
      if (rows.length === 0) return false;
      await showOnLink(tx, linkId, null);
      return true;
    },

    /** The state of a link's icon (null for a link without one). */
    async stateOf(db: Executor, linkId: string) {
      const rows = await selectRows<{
        state: DueLink['state'];
        iconId: string | null;
        foundAt: string | null;
        failure: string | null;
        checkedAt: Date | string | null;
      }>(
        db,
        sql`SELECT state, icon_id AS "iconId", found_at AS "foundAt", failure,
                   checked_at AS "checkedAt"
            FROM link_icons WHERE link_id = ${linkId}`,
      );
      return rows[0] ?? null;
    },

    /** The sizes an icon has, smallest first (empty for an unknown icon). */
    async sizes(db: Executor, id: string): Promise<number[]> {
      const rows = await selectRows<{ size: number }>(
        db,
        sql`SELECT size FROM icon_images WHERE icon_id = ${id} ORDER BY size`,
      );
      return rows.map((r) => Number(r.size));
    },

    /** One image of an icon, or null. */
    async image(db: Executor, id: string, size: number): Promise<IconImage | null> {
      const rows = await selectRows<{ contentType: IconImage['contentType']; body: Uint8Array }>(
        db,
        sql`SELECT content_type AS "contentType", body FROM icon_images
            WHERE icon_id = ${id} AND size = ${size}`,
      );
      const row = rows[0];
      return row ? { size, contentType: row.contentType, bytes: Buffer.from(row.body) } : null;
    },

    /**
     * Deletes icons no link uses any more, made more than `graceSeconds` ago (an icon kept a
     * moment ago may be about to be shown). Answers how many went.
     */
    async deleteUnused(db: Executor, graceSeconds: number): Promise<number> {
      const rows = await selectRows<{ id: string }>(
        db,
        sql`DELETE FROM icons i
            WHERE i.created_at < now() - make_interval(secs => ${graceSeconds})
              AND NOT EXISTS (SELECT 1 FROM link_icons li WHERE li.icon_id = i.id)
            RETURNING i.id`,
      );
      return rows.length;
    },
  };
}

export type IconsRepository = ReturnType<typeof createIconsRepository>;
