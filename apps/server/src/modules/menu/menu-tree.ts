import {
  SHARED_ROOT_ID,
  type Collection,
  type CollectionShareItem,
  type LinkItem,
  type Menu,
  type MenuItem,
  type Space,
} from '@signpost/contract';
import type { AuthContext } from '../../lib/auth-context.ts';
import {
  collectionCan,
  FAVORITE_CAN,
  linkCan,
  NO_LINKS,
  NOTHING,
  runs,
  type Relation,
} from '../access/permissions.ts';
import type {
  MenuCollectionRow,
  MenuRows,
  MenuShareRow,
  TeamSpaceRows,
} from './menu.repository.ts';

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
const teamRelation = (role: 'member' | 'editor'): Relation =>
  role === 'editor' ? 'team-editor' : 'team-member';

/** The spaces the menu statement left out, because their serialized form is held. */
export interface MenuSkip {
  teams: ReadonlySet<string>;
  organization: boolean;
}

const SKIP_NOTHING: MenuSkip = { teams: new Set(), organization: false };

/**
 * A menu in parts: everything but the spaces, the personal space, each team space (null
 * where skipped) and the organization's (null where skipped), so that the service can
 * serialize the shared spaces once and reuse them (decision 0057).
 */
export interface MenuParts {
  head: Omit<Menu, 'spaces'>;
  personal: Space;
  teams: { id: string; space: Space | null }[];
  organization: Space | null;
}

export function buildMenu(me: AuthContext, rows: MenuRows): Menu {
  const { head, personal, teams, organization } = buildMenuParts(me, rows);
  return {
    profile: head.profile,
    organization: head.organization,
    spaces: [personal, ...teams.map((t) => t.space!), organization!],
    can: head.can,
  };
}

/**
 * One team's space, for an administrator who runs it (decision 0008): with the flags of a
 * member of the team when they are one, of `team-admin` when they are not (they change its
 * content, but neither favorite nor suggest: those are for its members).
 */
export function buildTeamSpace(
  me: AuthContext,
  team: NonNullable<TeamSpaceRows['team']>,
  collections: MenuCollectionRow[],
): Space {
  const rows: MenuRows = {
    collections,
    favorites: [],
    teams: [{ ...team, role: team.role ?? 'member' }],
    shares: [],
    organization: null,
    organizationSuggestions: null,
  };
  const outside = team.role === null ? new Set([team.id]) : new Set<string>();
  const parts = buildMenuParts(me, rows, { teams: new Set(), organization: true }, outside);
  return parts.teams[0]!.space!;
}

export function buildMenuParts(
  me: AuthContext,
  rows: MenuRows,
  skip: MenuSkip = SKIP_NOTHING,
  /** Teams the person runs without being in them: an administrator's, read by id. */
  outside: ReadonlySet<string> = new Set(),
): MenuParts {
  const byId = new Map(rows.collections.map((c) => [c.id, c]));
  const shareByCollection = new Map(rows.shares.map((s) => [s.collectionId, s]));
  /**
   * Whether a collection stands in the tree of its parent. A shared collection is shown
   * once: its owner sees it where they keep it, among the collections they ordered
   * (decision 0056); its members, who cannot see its parent, find it in shared-root.
   */
  const inTree = (c: MenuCollectionRow): c is MenuCollectionRow & { parentId: string } =>
    c.parentId !== null && byId.has(c.parentId);
  const children = new Map<string, MenuCollectionRow[]>();
  for (const c of rows.collections) {
    if (inTree(c)) {
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

  // Collections that hold a share or a favorite below them cannot be shared.
  const holding = new Set<string>();
  const markAncestors = (id: string | null) => {
    for (let c = id ? byId.get(id) : undefined; c && !holding.has(c.id);) {
      holding.add(c.id);
      c = c.parentId ? byId.get(c.parentId) : undefined;
    }
  };
  for (const s of rows.shares) markAncestors(byId.get(s.collectionId)?.parentId ?? null);
  for (const f of rows.favorites) markAncestors(f.collectionId);

  const teamRole = new Map(rows.teams.map((t) => [t.id, t.role]));
  const admin = me.role === 'admin';
  /** The person's relation to a collection of their menu (see access/permissions.ts). */
  function relationOf(c: MenuCollectionRow): Relation {
    if (c.ownerType === 'organization') return admin ? 'org-admin' : 'org-member';
    if (c.ownerType === 'team') {
      if (c.ownerTeamId && outside.has(c.ownerTeamId)) return 'team-admin';
      const role = c.ownerTeamId ? teamRole.get(c.ownerTeamId) : undefined;
      return role === 'editor' || admin ? 'team-editor' : 'team-member';
    }
    return c.ownerUserId === me.userId ? 'owner' : 'share-member';
  }

  function canOf(c: MenuCollectionRow, inShare: boolean) {
    return collectionCan({
      relation: relationOf(c),
      isRoot: c.isRoot,
      shared: shareByCollection.has(c.id) ? 'top' : inShare ? 'inside' : 'none',
      holdsShareOrFavorites: holding.has(c.id),
    });
  }

  /**
   * A collection's items. Its links share the flags of `linkCan` (see `collectionFields`);
   * a link carries its own `can` only where it differs: in a share, the links its member
   * added. That keeps the flags off the thousands of links of a large menu.
   */
  function itemsOf(collection: MenuCollectionRow, inShare: boolean): MenuItem[] {
    const entries: Positioned[] = [];
    const relation = relationOf(collection);
    const ownLinks = relation === 'share-member' ? linkCan(relation, true) : null;
    for (const l of collection.links) {
      const item: LinkItem = {
        type: 'link',
        id: l.id,
        name: l.name,
        description: l.description,
        url: l.url,
        icon: l.icon,
        appName: l.appName,
        createdBy: l.createdBy,
      };
      // Assigned, not spread into the literal: spreading made every link slower to build.
      if (ownLinks && l.createdBy === me.userId) item.can = ownLinks;
      entries.push({ position: l.position, order: 0, item });
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
          can: FAVORITE_CAN,
        },
      });
    }
    for (const child of children.get(collection.id) ?? []) {
      const share = shareByCollection.get(child.id);
      if (share) {
        entries.push({ position: child.position, order: 2, item: shareItem(share, child) });
        continue;
      }
      entries.push({
        position: child.position,
        order: 2,
        item: {
          type: 'collection',
          id: child.id,
          name: child.name,
          description: child.description,
          color: child.color,
          can: canOf(child, inShare),
          linkCan: linkCan(relationOf(child), false),
          items: itemsOf(child, inShare),
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
    can: canOf(c, false),
    linkCan: linkCan(relationOf(c), false),
    items: itemsOf(c, false),
  });

  function shareItem(share: MenuShareRow, c: MenuCollectionRow): CollectionShareItem {
    return {
      type: 'collection-share',
      id: c.id,
      name: c.name,
      description: c.description,
      color: c.color,
      shareId: share.id,
      shareCreatorId: share.createdBy,
      members: share.members,
      teams: share.teams,
      can: canOf(c, true),
      linkCan: linkCan(relationOf(c), false),
      items: itemsOf(c, true),
    };
  }

  const root = rows.collections.find((c) => c.isRoot && c.ownerUserId === me.userId);
  // The shares of others: one's own stand in one's tree (see `inTree`).
  const shared: CollectionShareItem[] = [];
  for (const share of rows.shares) {
    const c = byId.get(share.collectionId);
    if (c && !inTree(c)) shared.push(shareItem(share, c));
  }
  shared.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

  const personal: Space = {
    id: me.userId,
    name: PERSONAL_SPACE_NAME,
    type: 'personal',
    can: { addCollection: false },
    collections: [
      ...(root ? [topLevel(root)] : []),
      {
        type: 'shared-root',
        id: SHARED_ROOT_ID,
        name: SHARED_ROOT_NAME,
        description: '',
        color: null,
        can: NOTHING,
        linkCan: NO_LINKS,
        items: shared,
      },
    ],
  };

  const teams = rows.teams.map((team) => ({
    id: team.id,
    space: skip.teams.has(team.id)
      ? null
      : ({
          id: team.id,
          name: team.name,
          type: 'team',
          buddy: team.buddy,
          can: { addCollection: team.role === 'editor' || admin },
          ...(team.openSuggestions === null ? {} : { openSuggestions: team.openSuggestions }),
          collections: rows.collections
            .filter((c) => c.ownerTeamId === team.id && c.parentId === null)
            .map(topLevel),
        } satisfies Space),
  }));

  const organization: Space | null = skip.organization
    ? null
    : {
        id: me.organizationId,
        name: me.organizationName,
        type: 'organization',
        can: { addCollection: admin },
        ...(rows.organizationSuggestions === null
          ? {}
          : { openSuggestions: rows.organizationSuggestions }),
        collections: rows.collections
          .filter((c) => c.ownerType === 'organization' && c.parentId === null)
          .map(topLevel),
      };

  return {
    head: {
      profile: { id: me.userId, name: me.name, email: me.email },
      organization: {
        id: me.organizationId,
        name: me.organizationName,
        feedbackUrl: rows.organization?.feedbackUrl ?? null,
        consentUrl: rows.organization?.consentUrl ?? null,
        intros: rows.organization?.intros ?? { personal: '', team: '', organization: '' },
      },
      can: {
        administer: admin || rows.teams.some((team) => runs(teamRelation(team.role))),
        organization: admin,
      },
    },
    personal,
    teams,
    organization,
  };
}
