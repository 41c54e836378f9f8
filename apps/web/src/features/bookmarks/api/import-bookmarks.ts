import type {
  BookmarkImportBody,
  BookmarkImportPreview,
  BookmarkImportPreviewBody,
  BookmarkImportResult,
} from '@signpost/contract';
import { useMutation } from '@tanstack/react-query';
import { consumerApi, reportApiError } from '../../../lib/api-client';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

/** What the server would import from the file, and what it would leave out; writes nothing. */
export async function previewBookmarkImport(
  body: BookmarkImportPreviewBody,
): Promise<BookmarkImportPreview> {
  const response = await consumerApi.request<BookmarkImportPreview>('/bookmarks/import/preview', {
    method: 'POST',
    body,
  });
  return response.data;
}

/** Imports the file in one go; its result names the undo that takes it all back. */
export async function importBookmarks(body: BookmarkImportBody): Promise<BookmarkImportResult> {
  try {
    return (
      await consumerApi.request<BookmarkImportResult>('/bookmarks/import', {
        method: 'POST',
        body,
      })
    ).data;
  } catch (error) {
    reportApiError('POST /bookmarks/import', error);
    throw error;
  }
}

export const useBookmarkImportPreview = () => useMutation({ mutationFn: previewBookmarkImport });

/** The import, as a write on the menu: the menu reloads after it. */
export const useBookmarkImport = (
  config?: MenuMutationConfig<BookmarkImportBody, BookmarkImportResult>,
) => useMenuMutation(importBookmarks, config);
