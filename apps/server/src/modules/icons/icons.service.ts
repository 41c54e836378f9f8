import type { Database } from '../../db/client.ts';
import { createIconsRepository, type IconImage } from './icons.repository.ts';

/** The size served when none is asked for: the tile's, at twice the pixels (decision 0068). */
export const DEFAULT_ICON_SIZE = 64;

export function createIconsService(db: Database) {
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
  };
}
