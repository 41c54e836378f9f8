import { useCallback } from 'react';
import { consumerWrite } from '../../../lib/api-client';
import { useMenuWrite } from '../../../lib/menu/get-menu';

export interface ShareTarget {
  id: string;
  /** Set when the collection is already shared. */
  shareId?: string | null;
}

/**
 * Shares the collection with the people when it is not shared yet; otherwise adds them to
 * its share (spec §4 Sharing).
 */
export function addMembers(collection: ShareTarget, memberIds: string[]): Promise<boolean> {
  if (collection.shareId) {
    return consumerWrite(
      'POST',
      `/collection-shares/${encodeURIComponent(collection.shareId)}/members`,
      { memberIds },
    );
  }
  return consumerWrite('POST', '/collection-shares/', { collectionId: collection.id, memberIds });
}

/** addMembers, reloading the menu after a success. */
export function useAddMembers() {
  const write = useMenuWrite();
  return useCallback(
    (collection: ShareTarget, memberIds: string[]) =>
      write(() => addMembers(collection, memberIds)),
    [write],
  );
}
