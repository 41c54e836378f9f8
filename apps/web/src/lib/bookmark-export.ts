import type { BookmarkExportFormat, BookmarkExportQuery } from '@signpost/contract';
import { CONSUMER_BASE_PATH } from './constants';
import { downloadFile } from './download';

/** The name a file gets when the server names none. */
const FALLBACK_NAMES: Record<BookmarkExportFormat, string> = {
  netscape: 'bookmark-export.html',
  json: 'bookmark-export.json',
  csv: 'bookmark-export.csv',
  managed: 'managed-bookmarks.json',
};

/** The address of an export: a collection (`collectionId`) or a whole space (`space`). */
export function bookmarkExportUrl(query: BookmarkExportQuery): string {
  const params = new URLSearchParams({ format: query.format });
  if (query.collectionId) params.set('collectionId', query.collectionId);
  if (query.space) params.set('space', query.space);
  return `${CONSUMER_BASE_PATH}/bookmarks/export?${params.toString()}`;
}

/**
 * Downloads the export of a collection or a space (decision 0087) under the name the server
 * gives: fetched with the bearer token, then saved from a Blob.
 */
export function exportBookmarks(query: BookmarkExportQuery): Promise<void> {
  return downloadFile(bookmarkExportUrl(query), FALLBACK_NAMES[query.format]);
}
