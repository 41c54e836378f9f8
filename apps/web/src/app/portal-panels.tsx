import { useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { MenuItemTile } from '../components/menu-item-tile';
import { findMySpace, locateCollection, locateItem } from '../lib/menu/locate-item';
import type { CollectionLike, DisplayItem, LinkLike, ProcessedMenu } from '../lib/menu/menu-types';
import {
  addPanelParent,
  appLinksOf,
  dropParentOf,
  favoriteOf,
  findEntry,
  membersOf,
  shareTeamsOf,
  shareIdOf,
} from '../lib/menu/selectors';
import { AddPanel } from '../features/add/components/add-panel';
import { CollectionPanel } from '../features/collections/components/collection-panel';
import { ItemMenu } from '../features/context-menu/components/item-menu';
import { MoveToDialog } from '../features/context-menu/components/move-to-dialog';
import { CollectionDetails } from '../features/details/components/collection-details';
import { LinkDetails } from '../features/details/components/link-details';
import { DragDropGrid } from '../features/drag-drop/components/drag-drop-grid';
import { MembersPanel } from '../features/members/components/members-panel';
import { SelectableItems } from '../features/selection/components/selectable-items';
import type { MenuPanel, Panel, PanelOf } from './use-panels';

export interface PortalPanelsProps {
  top: MenuPanel;
  data: ProcessedMenu;
  open: (panel: Panel) => void;
  back: () => void;
  closeAll: () => void;
  onOpenLink: (link: LinkLike) => void;
}

/** What every menu panel is drawn with: the portal's callbacks and the menu's own ids. */
interface PanelContext<K extends MenuPanel['kind']> extends Omit<PortalPanelsProps, 'top'> {
  panel: PanelOf<K>;
  mySpaceId: string | null;
  onItemMenu: (item: DisplayItem) => void;
}

/** Draws one kind of menu panel; null when its collection or item is gone. */
type PanelRenderer<K extends MenuPanel['kind']> = (context: PanelContext<K>) => ReactNode;

/**
 * The items of a collection the person may arrange, by drag and drop. The way a tile is
 * drawn stays the same from one drawing to the next (the portal's callbacks do), so after a
 * write only the tiles whose item changed are drawn again, not every tile of the collection.
 */
function ArrangeableItems({
  collection,
  parent,
  open,
  onOpenLink,
  onItemMenu,
}: {
  collection: { id: string; name: string; items: DisplayItem[] };
  parent: { id: string; name: string } | null;
  open: (panel: Panel) => void;
  onOpenLink: (link: LinkLike) => void;
  onItemMenu: (item: DisplayItem) => void;
}) {
  const { id, name } = collection;
  const reorder = useMemo(() => ({ id, name }), [id, name]);
  const renderTile = useCallback(
    (item: DisplayItem) => (
      <MenuItemTile
        item={item}
        longPressOnRelease
        onOpenLink={onOpenLink}
        onOpenCollection={(child) => open({ kind: 'collection', id: child.id, parentPanelId: id })}
        onItemMenu={onItemMenu}
        onAdd={(collectionId) =>
          open({ kind: 'add', id: collectionId, parentPanelId: collectionId })
        }
      />
    ),
    [id, open, onOpenLink, onItemMenu],
  );
  return (
    <DragDropGrid
      items={collection.items}
      parent={parent}
      reorder={reorder}
      withTrash
      renderTile={renderTile}
    />
  );
}

/**
 * Every menu panel by kind. The type asks for each kind of MenuPanel, so a new kind cannot be
 * left out; the rules they follow are the selectors of lib/menu.
 */
const MENU_PANELS: { [K in MenuPanel['kind']]: PanelRenderer<K> } = {
  collection: ({ panel, data, open, back, closeAll, onOpenLink, onItemMenu, mySpaceId }) => {
    const found = locateCollection(data.spaces, panel.id);
    if (!found) return null;
    const { collection, parent } = found;
    const topLevel = parent === null;
    const { can } = collection;
    const tileProps = {
      onOpenLink,
      onOpenCollection: (child: CollectionLike) =>
        open({ kind: 'collection', id: child.id, parentPanelId: collection.id }),
      onItemMenu,
      onAdd: (collectionId: string) =>
        open({ kind: 'add', id: collectionId, parentPanelId: collectionId }),
    };
    const addParent = addPanelParent(collection.id, topLevel, mySpaceId);
    return (
      <CollectionPanel
        collection={collection}
        onBack={back}
        onClose={closeAll}
        onDetails={() => open({ kind: 'collection-details', id: collection.id })}
        onAddLink={
          can.addLink
            ? () => open({ kind: 'add', id: collection.id, parentPanelId: addParent })
            : undefined
        }
        onAddMembers={can.share ? () => open({ kind: 'members', id: collection.id }) : undefined}
        {...tileProps}
      >
        <SelectableItems spaces={data.spaces} collection={collection}>
          {can.reorder ? (
            <ArrangeableItems
              collection={collection}
              parent={dropParentOf(parent)}
              open={open}
              onOpenLink={onOpenLink}
              onItemMenu={onItemMenu}
            />
          ) : (
            <ul className="tile-grid">
              {collection.items.map((item) => (
                <li key={`${item.type}:${item.id}`}>
                  <MenuItemTile item={item} {...tileProps} />
                </li>
              ))}
            </ul>
          )}
        </SelectableItems>
      </CollectionPanel>
    );
  },

  add: ({ panel, data, back, mySpaceId }) => {
    const found = locateCollection(data.spaces, panel.id);
    if (!found) return null;
    return (
      <AddPanel
        panelId={panel.id}
        parentPanelId={panel.parentPanelId}
        variant={panel.id === mySpaceId ? 'default' : 'personal-collection'}
        targetName={found.collection.name}
        initialLink={panel.draft}
        onClose={back}
      />
    );
  },

  // Closes when the space is gone or the person no longer runs it (the menu says so).
  'add-collection': ({ panel, data, back }) => {
    const space = data.spaces.find((candidate) => candidate.id === panel.spaceId);
    if (!space?.can.addCollection) return null;
    return <AddPanel spaceId={space.id} targetName={space.name} onClose={back} />;
  },

  members: ({ panel, data, back }) => {
    const found = locateCollection(data.spaces, panel.id);
    if (!found) return null;
    const { collection } = found;
    return (
      <MembersPanel
        collection={{
          id: collection.id,
          name: collection.name,
          shareId: shareIdOf(collection),
          members: membersOf(collection),
          teams: shareTeamsOf(collection),
        }}
        teams={data.spaces
          .filter((space) => space.type === 'team')
          .map((space) => ({ id: space.id, name: space.name }))}
        onClose={back}
      />
    );
  },

  'collection-details': ({ panel, data, open, back, mySpaceId }) => {
    const found = locateCollection(data.spaces, panel.id);
    if (!found) return null;
    const { collection } = found;
    return (
      <CollectionDetails
        collection={collection}
        profileId={data.profile.id}
        isMySpace={collection.id === mySpaceId}
        startEditing={panel.edit}
        onAddMembers={
          collection.can.share ? () => open({ kind: 'members', id: collection.id }) : undefined
        }
        onClose={back}
      />
    );
  },

  'link-details': ({ panel, data, back, onOpenLink, mySpaceId }) => {
    const entry = findEntry(data, panel.itemType, panel.id);
    if (!entry) return null;
    return (
      <LinkDetails
        entry={entry}
        appLinks={appLinksOf(data, entry)}
        favoriteId={favoriteOf(data, entry)?.id ?? null}
        mySpaceId={mySpaceId}
        onOpenLink={onOpenLink}
        startEditing={panel.edit}
        onClose={back}
      />
    );
  },

  'item-menu': ({ panel, data, open, back, mySpaceId }) => {
    const location = locateItem(data.spaces, panel.itemType, panel.id);
    if (!location) return null;
    const { item } = location;
    const entry = item.type === 'link' ? findEntry(data, item.type, item.id) : null;
    return (
      <ItemMenu
        location={location}
        profileId={data.profile.id}
        mySpaceId={mySpaceId}
        favoriteId={entry ? (favoriteOf(data, entry)?.id ?? null) : null}
        onOpenDetails={(edit) => {
          back();
          const editing = edit ? { edit } : {};
          if (item.type === 'link' || item.type === 'link-favorite') {
            open({ kind: 'link-details', id: item.id, itemType: item.type, ...editing });
          } else {
            open({ kind: 'collection-details', id: item.id, ...editing });
          }
        }}
        onMoveTo={() => {
          back();
          open({ kind: 'move-to', id: item.id, itemType: item.type });
        }}
        onImportBookmarks={() => {
          back();
          open({
            kind: 'bookmark-import',
            target: { into: 'collection', collectionId: item.id },
          });
        }}
        onExportBookmarks={() => {
          back();
          open({ kind: 'bookmark-export', place: { collectionId: item.id } });
        }}
        onClose={back}
      />
    );
  },

  'move-to': ({ panel, data, back }) => {
    const location = locateItem(data.spaces, panel.itemType, panel.id);
    if (!location) return null;
    return <MoveToDialog location={location} onClose={back} />;
  },
};

/**
 * Collection, add, add-members, details and context-menu panels, composed from their
 * features through MENU_PANELS. A panel whose collection or item is gone after a write
 * (deleted, left) closes.
 */
export function PortalPanels({ top, ...portal }: PortalPanelsProps) {
  const { open, back } = portal;
  const onItemMenu = useCallback(
    (item: DisplayItem) => open({ kind: 'item-menu', id: item.id, itemType: item.type }),
    [open],
  );
  const mySpaceId = findMySpace(portal.data.spaces)?.id ?? null;
  // The kind picks its renderer, so the panel is of that renderer's kind.
  const render = MENU_PANELS[top.kind] as PanelRenderer<MenuPanel['kind']>;
  const content = render({ ...portal, panel: top, mySpaceId, onItemMenu }) ?? null;

  const missing = content === null;
  useEffect(() => {
    if (missing) back();
  }, [missing, back]);
  return content;
}
