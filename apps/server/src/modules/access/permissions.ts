import type { CollectionCan, LinkCan } from '@signpost/contract';

/**
 * What a person has to do with a collection they can see (decision 0008). An organization
 * administrator runs every team: in a team they are in, they are its editor
 * (`team-editor`); in one they are not in, `team-admin` (reachable by id, not in their menu).
 */
export type Relation =
  | 'owner'
  | 'share-member'
  | 'team-member'
  | 'team-editor'
  | 'team-admin'
  | 'org-member'
  | 'org-admin';

/** Collections nest at most this many levels below My Space (or a space's top level). */
export const MAX_DEPTH = 10;

/** The people who run a team or organization space: they manage its content in place. */
export function runs(relation: Relation): boolean {
  return relation === 'team-editor' || relation === 'team-admin' || relation === 'org-admin';
}

/** What decides a collection's flags besides the relation. */
export interface CollectionFacts {
  relation: Relation;
  /** My Space. */
  isRoot: boolean;
  /** `top` for a shared collection itself, `inside` for one within a share, else `none`. */
  shared: 'none' | 'top' | 'inside';
  /** A share or a favorite somewhere below it (it could then not be shared). */
  holdsShareOrFavorites: boolean;
}

/**
 * The one decision of what a person may do with a collection: the menu sends it as `can`
 * and the access layer refuses what it does not allow, so the two cannot disagree.
 */
export function collectionCan(facts: CollectionFacts): CollectionCan {
  const { relation, isRoot, shared } = facts;
  const owner = relation === 'owner';
  const member = relation === 'share-member';
  const runner = runs(relation);
  return {
    edit: owner || runner,
    delete: (owner && !isRoot) || runner,
    move: (owner && !isRoot) || runner,
    reorder: owner || runner,
    addLink: owner || member || runner,
    addCollection: owner || runner,
    share:
      owner && !isRoot && (shared === 'top' || (shared === 'none' && !facts.holdsShareOrFavorites)),
    leave: member && shared === 'top',
    // Every member of the space may suggest (its editors and admins too, though they add
    // links themselves); an admin outside a team is not one of its members.
    suggest:
      relation === 'team-member' || relation === 'team-editor' || relation.startsWith('org-'),
  };
}

/** What a person may do with a link, from their relation to its collection. */
export function linkCan(relation: Relation, addedByMe: boolean): LinkCan {
  const changes =
    relation === 'owner' || runs(relation) || (relation === 'share-member' && addedByMe);
  return {
    edit: changes,
    delete: changes,
    move: changes,
    // Favorites point at team and organization links the person sees in their menu.
    favorite: relation !== 'owner' && relation !== 'share-member' && relation !== 'team-admin',
  };
}

/** A favorite is the person's own: they delete and move it, never edit it. */
export const FAVORITE_CAN: LinkCan = { edit: false, delete: true, move: true, favorite: false };

/** The link flags of a collection that holds no links of its own: the shared-root. */
export const NO_LINKS: LinkCan = { edit: false, delete: false, move: false, favorite: false };

/** The flags of a collection nobody changes: the personal space's shared-root. */
export const NOTHING: CollectionCan = {
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
