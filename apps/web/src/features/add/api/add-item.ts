import { useCallback } from 'react';
import { consumerWrite } from '../../../lib/api-client';
import { useMenuWrite } from '../../../lib/menu/get-menu';

export type AddKind = 'link' | 'collection';

/** What the link form sends: fields exactly as entered (spec §5: no validation). */
export interface AddLinkData {
  name: string;
  description: string;
  url: string;
}

export interface AddCollectionData {
  name: string;
  description: string;
}

export type AddData = AddLinkData | AddCollectionData;

/** The add panel's call (spec §7): the target panel id, a data object and a kind. */
export type AddItem = (targetId: string, data: AddData, kind: AddKind) => Promise<boolean>;

export function addItem(targetId: string, data: AddData, kind: AddKind): Promise<boolean> {
  if (kind === 'link') {
    return consumerWrite('POST', `/collections/${encodeURIComponent(targetId)}/links`, data);
  }
  return consumerWrite('POST', '/collections/', { ...data, parentId: targetId });
}

/** addItem, reloading the menu after a success. */
export function useAddItem(): AddItem {
  const write = useMenuWrite();
  return useCallback((targetId, data, kind) => write(() => addItem(targetId, data, kind)), [write]);
}
