import {
  UNDO_HEADERS,
  type CreateFavoriteBody,
  type DeleteItemsBody,
  type MoveItemsBody,
  type MoveBody,
  type OrderItemsBody,
  type SuggestLinkBody,
  type UpdateCollectionBody,
  type UpdateLinkBody,
} from '@signpost/contract';
import { ApiError, consumerApi, consumerWrite, reportApiError } from '../api-client';
import { STATUS_WRITE_OK } from '../constants';
import { announceUndone, offerUndo, type UndoKind } from '../undo/pending-undo';

/**
 * The portal's writes on menu items (spec §7), with the contract's bodies. Each resolves on
 * 204 and rejects with the server's error (already logged and reported). Features run them
 * through useMenuMutation, which reloads the menu.
 */
const id = encodeURIComponent;

/**
 * A deletion or a change the server lets the person undo for a while (decisions 0052, 0076):
 * as consumerWrite, and on success the undo it names in its headers, if any, is offered (the
 * notice of features/undo). `label` names what went or changed, for the notice. Resolves
 * with that undo's id (null when the server named none), for a view that says what became
 * of the thing once it is undone (`subscribeUndone`).
 */
async function writeNamingUndo(
  method: 'DELETE' | 'PATCH' | 'PUT' | 'POST',
  path: string,
  kind: UndoKind,
  label = '',
  body?: unknown,
): Promise<string | null> {
  try {
    const response = await consumerApi.request<unknown>(path, { method, body });
    if (response.status !== STATUS_WRITE_OK) throw new ApiError(response.status, response.data);
    const undoId = response.headers.get(UNDO_HEADERS.id);
    if (undoId) offerUndo({ id: undoId, kind, label });
    return undoId;
  } catch (error) {
    reportApiError(`${method} ${path}`, error);
    throw error;
  }
}

/** writeNamingUndo for the callers that only wait for it. */
async function writeUndoable(...args: Parameters<typeof writeNamingUndo>): Promise<void> {
  await writeNamingUndo(...args);
}

const deleteUndoable = (path: string, kind: UndoKind, label?: string) =>
  writeUndoable('DELETE', path, kind, label);

/** As deleteLink, resolving with the id of the undo it offered (null: none). */
export const deleteLinkNamingUndo = (linkId: string, label?: string) =>
  writeNamingUndo('DELETE', `/links/${id(linkId)}`, 'link', label);

export const deleteLink = async (linkId: string, label?: string) => {
  await deleteLinkNamingUndo(linkId, label);
};

/** As updateLink, resolving with the id of the undo it offered (null: none). */
export const updateLinkNamingUndo = (linkId: string, body: UpdateLinkBody, label?: string) =>
  writeNamingUndo('PATCH', `/links/${id(linkId)}`, 'changed', label, body);

/**
 * Changes a link's name, description, address or app (a moved link's new address, decision
 * 0069); undoable (decision 0076).
 */
export const updateLink = async (linkId: string, body: UpdateLinkBody, label?: string) => {
  await updateLinkNamingUndo(linkId, body, label);
};

/** Moves a link to the end of another collection of its space; undoable. */
export const moveLink = (linkId: string, body: MoveBody, label?: string) =>
  writeUndoable('PUT', `/links/${id(linkId)}/collection`, 'moved', label, body);

/** Changes a collection's name, description or colour; undoable. */
export const updateCollection = (
  collectionId: string,
  body: UpdateCollectionBody,
  label?: string,
) => writeUndoable('PATCH', `/collections/${id(collectionId)}`, 'changed', label, body);

/** Moves a collection to the end of another collection of its space; undoable. */
export const moveCollection = (collectionId: string, parentId: string, label?: string) =>
  writeUndoable('PATCH', `/collections/${id(collectionId)}`, 'moved', label, { parentId });

/** Puts a collection's items in a new order, naming every one; undoable. */
export const orderItems = (collectionId: string, body: OrderItemsBody, label?: string) =>
  writeUndoable('PUT', `/collections/${id(collectionId)}/order`, 'reordered', label, body);

export const moveFavorite = (favoriteId: string, body: MoveBody) =>
  consumerWrite('PUT', `/favorites/${id(favoriteId)}/collection`, body);

/** Favorites a team or organization link into a personal collection. */
export const addFavorite = (collectionId: string, body: CreateFavoriteBody) =>
  consumerWrite('POST', `/collections/${id(collectionId)}/favorites`, body);

export const deleteFavorite = (favoriteId: string, label?: string) =>
  deleteUndoable(`/favorites/${id(favoriteId)}`, 'favorite', label);

export const deleteCollection = (collectionId: string, label?: string) =>
  deleteUndoable(`/collections/${id(collectionId)}/`, 'collection', label);

export const deleteShare = (shareId: string, label?: string) =>
  deleteUndoable(`/collection-shares/${id(shareId)}/`, 'collection', label);

/** Leaving a share removes one's own membership (the profile id). */
export const leaveShare = (shareId: string, profileId: string, label?: string) =>
  deleteUndoable(`/collection-shares/${id(shareId)}/members/${id(profileId)}`, 'leave', label);

/** Moves several items of a collection to the end of another, together; undoable together. */
export const moveItems = (body: MoveItemsBody, label: string) =>
  writeUndoable('POST', '/items/move', 'movedSeveral', label, body);

/** Deletes several items together; one undo brings them all back (decision 0076). */
export const deleteItems = (body: DeleteItemsBody, label: string) =>
  writeUndoable('POST', '/items/delete', 'deletedSeveral', label, body);

/**
 * Restores what a deletion removed or puts back what a change changed (decisions 0052,
 * 0076); the menu reloads after it, and the views that said what was done hear of it.
 */
export const undoDeletion = async (undoId: string) => {
  await consumerWrite('POST', `/undo/${id(undoId)}`);
  announceUndone(undoId);
};

export const suggestLink = (collectionId: string, body: SuggestLinkBody) =>
  consumerWrite('POST', `/collections/${id(collectionId)}/suggestions`, body);

/** Moves a link or a favorite (the only items that may be dropped on a collection). */
export const moveItem = (item: { type: string; id: string }, body: MoveBody) =>
  item.type === 'link-favorite' ? moveFavorite(item.id, body) : moveLink(item.id, body);

/** Deletes a link or a favorite. */
export const deleteItem = (item: { type: string; id: string; name?: string }) =>
  item.type === 'link-favorite'
    ? deleteFavorite(item.id, item.name)
    : deleteLink(item.id, item.name);

/** Refuses a write that cannot be made here (no My Space to move to, not a share). */
export const refuse = (reason: string) => Promise.reject(new Error(reason));
