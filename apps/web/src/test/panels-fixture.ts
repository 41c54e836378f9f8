import type { CollectionShareItem, FavoriteItem, MenuItem } from '@signpost/contract';
import { processMenu } from '../lib/menu/process-menu';
import {
  FAVORITE,
  NO_SHARE,
  OWN_LINK,
  OWNED,
  READ_LINK,
  READ_ONLY,
  SHARE_MEMBER,
  SHARED_LINK,
} from './can-fixture';
import { makeLink, makeMenu, PROFILE } from './menu-fixture';

export const OTHER = { id: 'other', name: 'Grace Hopper', email: 'grace@example.com' };

export function makeShare(
  id: string,
  creator: string,
  members = [PROFILE, OTHER],
  items: MenuItem[] = [],
): CollectionShareItem {
  return {
    type: 'collection-share',
    id,
    name: `Share ${id}`,
    description: `About ${id}`,
    color: '#7c3aed',
    shareId: `share-${id}`,
    shareCreatorId: creator,
    members,
    teams: [],
    can: creator === PROFILE.id ? OWNED : SHARE_MEMBER,
    linkCan: creator === PROFILE.id ? OWN_LINK : SHARED_LINK,
    items,
  };
}

export const favorite: FavoriteItem = {
  type: 'link-favorite',
  id: 'fav-1',
  linkId: 'team-link',
  name: 'Team wiki (favorite)',
  description: '',
  url: 'https://wiki.example.com',
  icon: null,
  appName: 'Confluence',
  can: FAVORITE,
};

/**
 * A processed menu with every context of spec §6: links at the root of My Space and in a
 * sub-collection, a favorite, personal collections, shares (own, someone else's with
 * several members, one with a single member), team and organization links and collections.
 */
export function panelsMenu() {
  return processMenu(
    makeMenu({
      myItems: [
        makeLink({ id: 'root-link', name: 'Root link' }),
        favorite,
        {
          type: 'collection',
          id: 'projects',
          name: 'Projects',
          description: 'What I work on',
          color: '#0d9488',
          can: OWNED,
          linkCan: OWN_LINK,
          items: [
            makeLink({ id: 'nested-link', name: 'Nested link' }),
            {
              type: 'collection',
              id: 'inner',
              name: 'Inner',
              description: '',
              color: null,
              can: NO_SHARE,
              linkCan: OWN_LINK,
              items: [],
            },
          ],
        },
      ],
      sharedItems: [
        makeShare('own', PROFILE.id),
        makeShare('theirs', OTHER.id, [OTHER, PROFILE], [makeLink({ id: 'in-share' })]),
        // The person's own share that nobody else is in any more: its owner deletes it.
        makeShare('alone', PROFILE.id, [PROFILE]),
      ],
      teamItems: [
        makeLink({ id: 'team-link', name: 'Team wiki', appName: 'Confluence', can: READ_LINK }),
        {
          type: 'collection',
          id: 'team-sub',
          name: 'Runbooks',
          description: 'When the pager goes off',
          color: null,
          can: READ_ONLY,
          linkCan: READ_LINK,
          items: [],
        },
      ],
    }),
  );
}
