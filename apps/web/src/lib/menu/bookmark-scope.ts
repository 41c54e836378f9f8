import type { BookmarkExportQuery, BookmarkImportTarget } from '@signpost/contract';
import { spaceExportKey, type ExportPlace } from './bookmark-places';
import { findMySpace, locateCollection } from './locate-item';
import type { DisplaySpace } from './menu-types';

/** The name of the place an import goes to: the collection, or the space of a new one. */
export function importPlaceName(
  spaces: readonly DisplaySpace[],
  target: BookmarkImportTarget,
): string {
  if (target.into === 'collection') {
    return locateCollection(spaces, target.collectionId)?.collection.name ?? '';
  }
  if (target.spaceId) return spaces.find((space) => space.id === target.spaceId)?.name ?? '';
  return findMySpace(spaces)?.name ?? '';
}

/** An export as the dialog needs it: its query, its name, and whether it may be a policy. */
export interface ExportScope {
  query: Omit<BookmarkExportQuery, 'format'>;
  name: string;
  /** A team or organization place: a managed-bookmarks policy is offered too. */
  managed: boolean;
}

/** The export of `place`, or null when it is no longer in the menu. */
export function exportScope(
  spaces: readonly DisplaySpace[],
  place: ExportPlace,
): ExportScope | null {
  if ('collectionId' in place) {
    const found = locateCollection(spaces, place.collectionId);
    if (!found) return null;
    return {
      query: { collectionId: found.collection.id },
      name: found.collection.name,
      managed: found.space.type !== 'personal',
    };
  }
  const space = spaces.find((candidate) => candidate.id === place.spaceId);
  if (!space) return null;
  return {
    query: { space: spaceExportKey(space) },
    name: space.name,
    managed: space.type !== 'personal',
  };
}
