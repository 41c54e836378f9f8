import {
  SHARED_ROOT_ID,
  type Collection,
  type CollectionShareItem,
  type Menu,
  type MenuItem,
  type Space,
} from '@signpost/contract';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { MenuCollectionRow, MenuRows, MenuShareRow } from './menu.repository.ts';

export const PERSONAL_SPACE_NAME = 'My Space';
export const SHARED_ROOT_NAME = 'Shared collections';

interface Positioned {
  position: number;
  order: number;
  item: MenuItem;
}

/**
 * Turns the flat rows of one person's menu into the nested menu of docs/architecture.md:
 * personal space first (My Space, then shared-root), then team spaces, then the
 * organization's. Pure: no I/O, so it is tested on its own.
 */
export function buildMenu(me: AuthContext, rows: MenuRows): Menu {
  const byId = new Map(rows.collections.map((c) => [c.id, c]));
  const shareByCollection = new Map(rows.shares.map((s) => [s.collectionId, s]));
  const children = new Map<string, MenuCollectionRow[]>();
  for (const c of rows.collections) {
    // A shared collection is shown once, in shared-root, not inside its owner's tree.
    if (c.parentId && byId.has(c.parentId) && !shareByCollection.has(c.id)) {
      const list = children.get(c.parentId) ?? [];
      list.push(c);
      children.set(c.parentId, list);
    }
  }
  const favoritesIn = new Map<string, MenuRows['favorites']>();
  for (const f of rows.favorites) {
    const list = favoritesIn.get(f.collectionId) ?? [];
    list.push(f);
    favoritesIn.set(f.collectionId, list);
  }

  function itemsOf(collection: MenuCollectionRow): MenuItem[] {
    const entries: Positioned[] = [];
    for (const l of collection.links) {
      entries.push({
        position: l.position,
        order: 0,
        item: {
          type: 'link',
          id: l.id,
          name: l.name,
          description: l.description,
          url: l.url,
          icon: l.icon,
          appName: l.appName,
          createdBy: l.createdBy,
        },
      });
    }
    for (const f of favoritesIn.get(collection.id) ?? []) {
      entries.push({
        position: f.position,
        order: 1,
        item: {
          type: 'link-favorite',
          id: f.id,
          linkId: f.linkId,
          name: f.name,
          description: f.description,
          url: f.url,
          icon: f.icon,
          appName: f.appName,
        },
      });
    }
    for (const child of children.get(collection.id) ?? []) {
      entries.push({
        position: child.position,
        order: 2,
        item: {
          type: 'collection',
          id: child.id,
          name: child.name,
          description: child.description,
          color: child.color,
          items: itemsOf(child),
        },
      });
    }
    entries.sort((a, b) => a.position - b.position || a.order - b.order);
    return entries.map((e) => e.item);
  }

  const topLevel = (c: MenuCollectionRow): Collection => ({
    type: 'collection',
    id: c.id,
    name: c.name,
    description: c.description,
    color: c.color,
    items: itemsOf(c),
  });

  const shareItem = (share: MenuShareRow, c: MenuCollectionRow): CollectionShareItem => ({
    type: 'collection-share',
    id: c.id,
    name: c.name,
    description: c.description,
    color: c.color,
    shareId: share.id,
    shareCreatorId: share.createdBy,
    members: share.members,
    items: itemsOf(c),
  });

  const root = rows.collections.find((c) => c.isRoot && c.ownerUserId === me.userId);
  const shared: CollectionShareItem[] = [];
  for (const share of rows.shares) {
    const c = byId.get(share.collectionId);
    if (c) shared.push(shareItem(share, c));
  }
  shared.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

  const personal: Space = {
    id: me.userId,
    name: PERSONAL_SPACE_NAME,
    type: 'personal',
    collections: [
      ...(root ? [topLevel(root)] : []),
      {
        type: 'shared-root',
        id: SHARED_ROOT_ID,
        name: SHARED_ROOT_NAME,
        description: '',
        color: null,
        items: shared,
      },
    ],
  };

  const teamSpaces: Space[] = rows.teams.map((team) => ({
    id: team.id,
    name: team.name,
    type: 'team',
    buddy: team.buddy,
    collections: rows.collections
      .filter((c) => c.ownerTeamId === team.id && c.parentId === null)
      .map(topLevel),
  }));

  const organization: Space = {
    id: me.organizationId,
    name: me.organizationName,
    type: 'organization',
    collections: rows.collections
      .filter((c) => c.ownerType === 'organization' && c.parentId === null)
      .map(topLevel),
  };

  return {
    profile: { id: me.userId, name: me.name, email: me.email },
    organization: {
      id: me.organizationId,
      name: me.organizationName,
      feedbackUrl: rows.organization?.feedbackUrl ?? null,
      consentUrl: rows.organization?.consentUrl ?? null,
      intros: rows.organization?.intros ?? { personal: '', team: '', organization: '' },
    },
    spaces: [personal, ...teamSpaces, organization],
  };
}
