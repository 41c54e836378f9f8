import type { CreateFavoriteBody, MoveBody, SuggestLinkBody } from '@signpost/contract';
import { consumerWrite } from '../api-client';

/**
 * The portal's writes on menu items (spec §7), with the contract's bodies. Each resolves on
 * 204 and rejects with the server's error (already logged and reported). Features run them
 * through useMenuMutation, which reloads the menu.
 */
const id = encodeURIComponent;

export const deleteLink = (linkId: string) => consumerWrite('DELETE', `/links/${id(linkId)}`);

export const moveLink = (linkId: string, body: MoveBody) =>
  consumerWrite('PUT', `/links/${id(linkId)}/collection`, body);

export const moveFavorite = (favoriteId: string, body: MoveBody) =>
  consumerWrite('PUT', `/favorites/${id(favoriteId)}/collection`, body);

/** Favorites a team or organization link into a personal collection. */
export const addFavorite = (collectionId: string, body: CreateFavoriteBody) =>
  consumerWrite('POST', `/collections/${id(collectionId)}/favorites`, body);

export const deleteFavorite = (favoriteId: string) =>
  consumerWrite('DELETE', `/favorites/${id(favoriteId)}`);

export const deleteCollection = (collectionId: string) =>
  consumerWrite('DELETE', `/collections/${id(collectionId)}/`);

export const deleteShare = (shareId: string) =>
  consumerWrite('DELETE', `/collection-shares/${id(shareId)}/`);

/** Leaving a share removes one's own membership (the profile id). */
export const leaveShare = (shareId: string, profileId: string) =>
  consumerWrite('DELETE', `/collection-shares/${id(shareId)}/members/${id(profileId)}`);

export const suggestLink = (collectionId: string, body: SuggestLinkBody) =>
  consumerWrite('POST', `/collections/${id(collectionId)}/suggestions`, body);

/** Moves a link or a favorite (the only items that may be dropped on a collection). */
export const moveItem = (item: { type: string; id: string }, body: MoveBody) =>
  item.type === 'link-favorite' ? moveFavorite(item.id, body) : moveLink(item.id, body);

/** Deletes a link or a favorite. */
export const deleteItem = (item: { type: string; id: string }) =>
  item.type === 'link-favorite' ? deleteFavorite(item.id) : deleteLink(item.id);

/** Refuses a write that cannot be made here (no My Space to move to, not a share). */
export const refuse = (reason: string) => Promise.reject(new Error(reason));
