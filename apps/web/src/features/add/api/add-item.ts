import type { CreateCollectionBody, CreateLinkBody } from '@signpost/contract';
import { consumerWrite } from '../../../lib/api-client';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

/** The add panel's call (spec §7): the target panel id, a data object and a kind. */
export type AddItemVariables =
  | { targetId: string; kind: 'link'; data: CreateLinkBody }
  | { targetId: string; kind: 'collection'; data: Omit<CreateCollectionBody, 'parentId'> };

export type AddKind = AddItemVariables['kind'];

/** A link goes into the target collection; a collection nests under it (its parentId). */
export function addItem({ targetId, kind, data }: AddItemVariables): Promise<void> {
  if (kind === 'link') {
    return consumerWrite('POST', `/collections/${encodeURIComponent(targetId)}/links`, data);
  }
  const body: CreateCollectionBody = { ...data, parentId: targetId };
  return consumerWrite('POST', '/collections/', body);
}

/** addItem as a mutation that reloads the menu after a success. */
export function useAddItem(mutationConfig?: MenuMutationConfig<AddItemVariables>) {
  return useMenuMutation(addItem, mutationConfig);
}
