import type { CreateCollectionBody, CreateLinkBody } from '@signpost/contract';
import { consumerWrite } from '../../../lib/api-client';
import { useMenuMutation, type MenuMutationConfig } from '../../../lib/menu/use-menu-mutation';

type CollectionData = Omit<CreateCollectionBody, 'parentId' | 'spaceId'>;

/**
 * The add panel's call (spec §7): the target panel id, a data object and a kind; or, for the
 * people who run a team or organization space, a top-level collection of that space.
 */
export type AddItemVariables =
  | { targetId: string; kind: 'link'; data: CreateLinkBody }
  | { targetId: string; kind: 'collection'; data: CollectionData }
  | { spaceId: string; kind: 'space-collection'; data: CollectionData };

export type AddKind = AddItemVariables['kind'];

/**
 * A link goes into the target collection; a collection nests under it (its parentId); a
 * space's collection goes to the top of that space (its spaceId, decision 0008).
 */
export function addItem(variables: AddItemVariables): Promise<void> {
  if (variables.kind === 'link') {
    const path = `/collections/${encodeURIComponent(variables.targetId)}/links`;
    return consumerWrite('POST', path, variables.data);
  }
  const body: CreateCollectionBody =
    variables.kind === 'collection'
      ? { ...variables.data, parentId: variables.targetId }
      : { ...variables.data, spaceId: variables.spaceId };
  return consumerWrite('POST', '/collections/', body);
}

/** addItem as a mutation that reloads the menu after a success. */
export function useAddItem(mutationConfig?: MenuMutationConfig<AddItemVariables>) {
  return useMenuMutation(addItem, mutationConfig);
}
