import type { LinkIconState } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest } from '../../lib/errors.ts';
import { createAccessService } from '../access/access.service.ts';
import { recordContentChange } from '../audit/content-audit.ts';
import { createIconsRepository, iconPath, type IconImage } from './icons.repository.ts';
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

export function createIconsService(
  db: Database,
  process?: (bytes: Buffer) => Promise<UploadedImages>,
) {
  const icons = createIconsRepository(db);
  return {
    /**
     * The image of an icon to serve for a size: the smallest kept that is at least the one
     * asked for, else the largest; null for an icon this server does not keep.
     */
    async image(id: string, wanted = DEFAULT_ICON_SIZE): Promise<IconImage | null> {
      const sizes = await icons.sizes(id);
      const size = sizes.find((s) => s >= wanted) ?? sizes.at(-1);
      return size === undefined ? null : icons.image(id, size);
    },

    /** Where a link's icon stands, for whoever may change the link. */
    async state(me: AuthContext, linkId: string): Promise<LinkIconState> {
      await createAccessService(db).changeableLink(me, linkId);
      const row = await icons.stateOf(linkId);
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
      if (!process) throw new Error('no image processing');
      // Asked before the image is decoded (nobody else makes the server do that work), and
      // again in the transaction that writes, where it holds.
      await createAccessService(db).changeableLink(me, linkId);
      const checked = await process(bytes);
      if (!checked.ok) throw badRequest(`The icon was not used: ${checked.reason}.`);
      await db.transaction(async (tx) => {
        const { link, in: source } = await createAccessService(tx).changeableLink(me, linkId);
        await createIconsRepository(tx).uploaded(tx, linkId, me.organizationId, checked.images);
        await recordContentChange(tx, me, origin, source.space, {
          action: 'content.link-updated',
          target: { type: 'link', id: linkId, label: link.name },
          after: { icon: 'uploaded' },
        });
      });
    },

    /** Drops a link's uploaded icon: its site's is looked for again. Nothing to drop is fine. */
    async removeUpload(me: AuthContext, linkId: string, origin?: AuditOrigin) {
      await db.transaction(async (tx) => {
        const { link, in: source } = await createAccessService(tx).changeableLink(me, linkId);
        if (!(await createIconsRepository(tx).removeUpload(tx, linkId))) return;
        await recordContentChange(tx, me, origin, source.space, {
          action: 'content.link-updated',
          target: { type: 'link', id: linkId, label: link.name },
          before: { icon: 'uploaded' },
          after: { icon: 'site' },
        });
      });
    },
  };
}
