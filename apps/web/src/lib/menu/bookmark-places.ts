import type { BookmarkImportTarget } from '@signpost/contract';
import type { DisplaySpace } from './menu-types';

/**
 * Where bookmarks may come in and go out (decision 0087), read from what the server says the
 * person may do (`can`, decision 0008): nothing here decides on its own. The first screen
 * offers them with these; the dialogs name the places with `bookmark-scope.ts`.
 */

/** A new collection in My Space: where a file goes from the settings or a drop. */
export const INTO_MY_SPACE: BookmarkImportTarget = { into: 'new' };

/**
 * An import into a new collection at the top of a space: My Space for its owner (who may nest
 * collections in it), a team or the organization for the people who run it
 * (`space.can.addCollection`). Null where the person may not.
 */
export function spaceImportTarget(space: DisplaySpace): BookmarkImportTarget | null {
  if (space.type === 'personal') {
    const mySpace = space.collections.find((collection) => collection.type === 'collection');
    return mySpace?.can.addCollection ? INTO_MY_SPACE : null;
  }
  return space.can.addCollection ? { into: 'new', spaceId: space.id } : null;
}

/** The `space` of an export of a whole space: `personal`, `organization`, or a team's id. */
export function spaceExportKey(space: DisplaySpace): string {
  return space.type === 'team' ? space.id : space.type;
}

/** What an export is of: a collection or a whole space. */
export type ExportPlace = { collectionId: string } | { spaceId: string };
