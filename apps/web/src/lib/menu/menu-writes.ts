import { consumerWrite } from '../api-client';

/**
 * The portal's writes on menu items (spec §7). Each resolves true on 204 and false on any
 * failure (already logged and reported). Run them through useMenuWrite to reload the menu.
 */
const id = encodeURIComponent;

export const deleteLink = (linkId: string) => consumerWrite('DELETE', `/links/${id(linkId)}`);

export const moveLink = (linkId: string, collectionId: string) =>
  consumerWrite('PUT', `/links/${id(linkId)}/collection`, { collectionId });

export const moveFavorite = (favoriteId: string, collectionId: string) =>
  consumerWrite('PUT', `/favorites/${id(favoriteId)}/collection`, { collectionId });

export const addFavorite = (linkId: string, collectionId: string) =>
  consumerWrite('POST', `/collections/${id(collectionId)}/favorites`, { type: 'link', id: linkId });

export const deleteFavorite = (favoriteId: string) =>
  consumerWrite('DELETE', `/favorites/${id(favoriteId)}`);

export const deleteCollection = (collectionId: string) =>
  consumerWrite('DELETE', `/collections/${id(collectionId)}/`);

export const deleteShare = (shareId: string) =>
  consumerWrite('DELETE', `/collection-shares/${id(shareId)}/`);

/** Leaving a share removes one's own membership (the profile id). */
export const leaveShare = (shareId: string, profileId: string) =>
  consumerWrite('DELETE', `/collection-shares/${id(shareId)}/members/${id(profileId)}`);

export const suggestLink = (
  collectionId: string,
  link: { name: string; description: string; url: string },
) => consumerWrite('POST', `/collections/${id(collectionId)}/suggestions`, link);

/** Moves a link or a favorite (the only items that may be dropped on a collection). */
export const moveItem = (item: { type: string; id: string }, collectionId: string) =>
  item.type === 'link-favorite'
    ? moveFavorite(item.id, collectionId)
    : moveLink(item.id, collectionId);

/** Deletes a link or a favorite. */
export const deleteItem = (item: { type: string; id: string }) =>
  item.type === 'link-favorite' ? deleteFavorite(item.id) : deleteLink(item.id);
