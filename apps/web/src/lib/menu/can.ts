import type { CollectionCan, LinkCan } from '@signpost/contract';

/**
 * What the person may do is the server's decision, sent in the menu as `can` (decision
 * 0008); the web app reads it and decides nothing of its own. These are the flags of things
 * that are not in the menu (a last-used link kept in the browser): nothing.
 */
export const NO_LINK_CAN: LinkCan = { edit: false, delete: false, move: false, favorite: false };

export const NO_COLLECTION_CAN: CollectionCan = {
  edit: false,
  delete: false,
  move: false,
  reorder: false,
  addLink: false,
  addCollection: false,
  share: false,
  leave: false,
  suggest: false,
};
