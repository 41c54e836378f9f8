import type { CollectionCan, LinkCan } from '@signpost/contract';
import { NO_COLLECTION_CAN } from '../lib/menu/can';

/** The flags the server sends (see apps/server/src/modules/access/permissions.ts). */
export const OWNED: CollectionCan = {
  edit: true,
  delete: true,
  move: true,
  reorder: true,
  addLink: true,
  addCollection: true,
  share: true,
  leave: false,
  suggest: false,
};
export const MY_SPACE: CollectionCan = { ...OWNED, delete: false, move: false, share: false };
/** A team or organization collection seen by a plain member. */
export const READ_ONLY: CollectionCan = { ...NO_COLLECTION_CAN, suggest: true };
/** A team or organization collection seen by one who runs the space. */
export const RUNS: CollectionCan = { ...OWNED, share: false, suggest: true };
/** A share seen by a member who does not own it. */
export const SHARE_MEMBER: CollectionCan = { ...NO_COLLECTION_CAN, addLink: true, leave: true };
export const NOTHING: CollectionCan = NO_COLLECTION_CAN;
/** An owned collection that cannot be shared (inside a share, or holding one or a favorite). */
export const NO_SHARE: CollectionCan = { ...OWNED, share: false };

export const OWN_LINK: LinkCan = { edit: true, delete: true, move: true, favorite: false };
export const READ_LINK: LinkCan = { edit: false, delete: false, move: false, favorite: true };
export const RUN_LINK: LinkCan = { edit: true, delete: true, move: true, favorite: true };
export const NO_LINK: LinkCan = { edit: false, delete: false, move: false, favorite: false };
/** The links of a share seen by a member, but for those they added. */
export const SHARED_LINK: LinkCan = NO_LINK;
export const FAVORITE: LinkCan = { edit: false, delete: true, move: true, favorite: false };
