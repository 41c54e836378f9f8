import type { LinkIconState } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest } from '../../lib/errors.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Jobs } from '../../jobs/queue.ts';
import type { AccessService } from '../access/access.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { iconPath, type IconImage, type IconsRepository } from './icons.repository.ts';
import { ICON_ROUNDS } from './icons.rounds.ts';
import { processUploadedIcon, type ImageRefusal } from './image.ts';
import { type AuditOrigin } from '../../lib/request-context.ts';

/** The size served when none is asked for: the tile's, at twice the pixels (decision 0068). */
export const DEFAULT_ICON_SIZE = 64;

/** What checking and scaling an uploaded image answered. */
export type UploadedImages = { ok: true; images: IconImage[] } | { ok: false; reason: string };

/**
 * An upload checked as a found icon is (image.ts), with words for the person who sent it:
 * what the decoder says of a broken file is not theirs to read.
 */
export async function checkUploadedIcon(bytes: Buffer): Promise<UploadedImages> {
  const result = await processUploadedIcon(bytes);
  if (result.ok) {
    return { ok: true, images: result.images };
  }
  const reason: Record<ImageRefusal, string> = {
    empty: 'the file is empty',
    'too-large': result.message,
    'not-an-image': 'it is not a PNG, JPEG, GIF, WebP or ICO image',
    svg: 'SVG images are not used; upload a PNG of it instead',
    'too-many-pixels': `it has ${result.message}`,
    'too-small': `it has ${result.message}`,
    undecodable: 'the image could not be read; it may be damaged',
  };
  return { ok: false, reason: reason[result.reason] };
}

export interface IconsDeps {
  db: Database;
  icons: IconsRepository;
  access: AccessService;
  audit: AuditService;
  /** Asked for an icon round soon; a queue that is not defined does nothing. */
  jobs: Pick<Jobs, 'runSoon'>;
  log: FastifyBaseLogger;
  /** Checks and scales an uploaded image (`checkUploadedIcon`). */
  checkUpload: (bytes: Buffer) => Promise<UploadedImages>;
}

export function createIconsService({
  db,
  icons,
  access,
  audit,
  jobs,
  log,
  checkUpload,
}: IconsDeps) {
  return {
    /**
     * The image of an icon to serve for a size: the smallest kept that is at least the one
     * asked for, else the largest; null for an icon this server does not keep.
     */
    async image(id: string, wanted = DEFAULT_ICON_SIZE): Promise<IconImage | null> {
      const sizes = await icons.sizes(db, id);
      const size = sizes.find((s) => s >= wanted) ?? sizes.at(-1);
      return size === undefined ? null : icons.image(db, id, size);
    },

    /**
     * Asks for an icon round soon (decision 0068): a saved link's icon is looked for at once,
     * not at the next minute. Never waits, never fails the caller.
     */
    lookSoon(): void {
      jobs.runSoon(ICON_ROUNDS).catch((error: unknown) => {
        log.warn({ err: error }, 'could not ask for an icon round');
      });
    },

    /** Where a link's icon stands, for whoever may change the link. */
    async state(me: AuthContext, linkId: string): Promise<LinkIconState> {
      await access.changeableLink(db, me, linkId);
      const row = await icons.stateOf(db, linkId);
      const checkedAt = row?.checkedAt ?? null;
      return {
        state: row?.state ?? 'pending',
        icon: row?.iconId ? iconPath(row.iconId) : null,
        foundAt: row?.state === 'found' ? row.foundAt : null,
        checkedAt: checkedAt === null ? null : new Date(checkedAt).toISOString(),
      };
    },

    /**
     * Sets a link's icon from an uploaded image, for whoever may change the link (its owner;
     * the editors and administrators of its space). The image is checked and scaled as a
     * found one is, before anything is written; a team or organization link's change is
     * audited. The site's icon is not looked for again while it stays.
     */
    async upload(me: AuthContext, linkId: string, bytes: Buffer, origin?: AuditOrigin) {
      // Asked before the image is decoded (nobody else makes the server do that work), and
      // again in the transaction that writes, where it holds.
      await access.changeableLink(db, me, linkId);
      const checked = await checkUpload(bytes);
      if (!checked.ok) throw badRequest(`The icon was not used: ${checked.reason}.`);
      await db.transaction(async (tx) => {
        const { link, in: source } = await access.changeableLink(tx, me, linkId);
        await icons.uploaded(tx, linkId, me.organizationId, checked.images);
        await audit.recordContentChange(tx, me, origin, source, {
          action: 'content.link-updated',
          target: { type: 'link', id: linkId, label: link.name },
          after: { icon: 'uploaded' },
        });
      });
    },

    /** Drops a link's uploaded icon: its site's is looked for again. Nothing to drop is fine. */
    async removeUpload(me: AuthContext, linkId: string, origin?: AuditOrigin) {
      await db.transaction(async (tx) => {
        const { link, in: source } = await access.changeableLink(tx, me, linkId);
        if (!(await icons.removeUpload(tx, linkId))) return;
        await audit.recordContentChange(tx, me, origin, source, {
          action: 'content.link-updated',
          target: { type: 'link', id: linkId, label: link.name },
          before: { icon: 'uploaded' },
          after: { icon: 'site' },
        });
      });
    },
  };
}
export type IconsService = ReturnType<typeof createIconsService>;
