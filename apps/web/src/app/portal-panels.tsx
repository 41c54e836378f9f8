import { useCallback, useEffect, type ReactNode } from 'react';
import { MenuItemTile } from '../components/menu-item-tile';
import { SHARED_ROOT_ID } from '../lib/constants';
import { findMySpace, locateCollection, locateItem, type Container } from '../lib/menu/locate-item';
import type { CollectionLike, DisplayItem, LinkLike, ProcessedMenu } from '../lib/menu/menu-types';
import { AddPanel } from '../features/add/components/add-panel';
import { CollectionPanel } from '../features/collections/components/collection-panel';
import { ItemMenu } from '../features/context-menu/components/item-menu';
import { CollectionDetails } from '../features/details/components/collection-details';
import { LinkDetails } from '../features/details/components/link-details';
import { DragDropGrid } from '../features/drag-drop/components/drag-drop-grid';
import { MembersPanel } from '../features/members/components/members-panel';
import type { Panel } from './use-panels';

export interface PortalPanelsProps {
  top: Panel;
  data: ProcessedMenu;
  open: (panel: Panel) => void;
  back: () => void;
  closeAll: () => void;
  onOpenLink: (link: LinkLike) => void;
}

function isShare(collection: Container) {
  return 'shareId' in collection && Boolean(collection.shareId);
}

/**
 * Collection, add, add-members, details and context-menu panels, composed from their
 * features. A panel whose collection or item is gone after a write (deleted, left) closes.
 */
export function PortalPanels({ top, data, open, back, closeAll, onOpenLink }: PortalPanelsProps) {
  const mySpaceId = findMySpace(data.spaces)?.id ?? null;
  const profileId = data.profile.id;

  const onItemMenu = useCallback(
    (item: DisplayItem) => open({ kind: 'item-menu', id: item.id, itemType: item.type }),
    [open],
  );

  /** Whether the person may share the collection or add people to its share. */
  const canShare = (collection: Container, spaceType: string, topLevel: boolean) => {
    if (spaceType !== 'personal' || topLevel) return false;
    if ('shareCreatorId' in collection) return collection.shareCreatorId === profileId;
    const location = locateItem(data.spaces, 'collection', collection.id);
    // Shares do not nest: nothing inside a shared collection can be shared again.
    return !location?.ancestors.some(
      (ancestor) => isShare(ancestor) || ancestor.id === SHARED_ROOT_ID,
    );
  };

  let content: ReactNode = null;
  switch (top.kind) {
    case 'collection': {
      const found = locateCollection(data.spaces, top.id);
      if (!found) break;
      const { collection, space, parent } = found;
      const personal = space.type === 'personal';
      const topLevel = parent === null;
      const shareable = canShare(collection, space.type, topLevel);
      const openCollection = (child: CollectionLike) =>
        open({ kind: 'collection', id: child.id, parentPanelId: collection.id });
      const tileProps = {
        onOpenLink,
        onOpenCollection: openCollection,
        onItemMenu,
        onAdd: (collectionId: string) =>
          open({ kind: 'add', id: collectionId, parentPanelId: collectionId }),
      };
      const toParent =
        personal && parent && parent.id !== SHARED_ROOT_ID
          ? { id: parent.id, name: parent.name }
          : null;
      content = (
        <CollectionPanel
          collection={collection}
          onBack={back}
          onClose={closeAll}
          onDetails={() => open({ kind: 'collection-details', id: collection.id })}
          onAddLink={
            personal && collection.id !== SHARED_ROOT_ID
              ? () =>
                  open({
                    kind: 'add',
                    id: collection.id,
                    parentPanelId: topLevel ? collection.id : (mySpaceId ?? collection.id),
                  })
              : undefined
          }
          onAddMembers={shareable ? () => open({ kind: 'members', id: collection.id }) : undefined}
          {...tileProps}
        >
          {personal ? (
            <DragDropGrid
              items={collection.items}
              parent={toParent}
              withTrash
              renderTile={(item) => <MenuItemTile item={item} longPressOnRelease {...tileProps} />}
            />
          ) : undefined}
        </CollectionPanel>
      );
      break;
    }
    case 'add': {
      const found = locateCollection(data.spaces, top.id);
      if (!found) break;
      content = (
        <AddPanel
          panelId={top.id}
          parentPanelId={top.parentPanelId}
          variant={top.id === mySpaceId ? 'default' : 'personal-collection'}
          targetName={found.collection.name}
          onClose={back}
        />
      );
      break;
    }
    case 'members': {
      const found = locateCollection(data.spaces, top.id);
      if (!found) break;
      const { collection } = found;
      const shareId = 'shareId' in collection ? collection.shareId : undefined;
      const members = 'members' in collection ? collection.members : undefined;
      content = (
        <MembersPanel
          collection={{ id: collection.id, name: collection.name, shareId, members }}
          onClose={back}
        />
      );
      break;
    }
    case 'collection-details': {
      const found = locateCollection(data.spaces, top.id);
      if (!found) break;
      const { collection, space, parent } = found;
      content = (
        <CollectionDetails
          collection={collection}
          spaceType={space.type}
          profileId={profileId}
          isRoot={space.type === 'personal' && parent === null}
          onAddMembers={
            canShare(collection, space.type, parent === null)
              ? () => open({ kind: 'members', id: collection.id })
              : undefined
          }
          onClose={back}
        />
      );
      break;
    }
    case 'link-details': {
      const entry = data.searchIndex.find(
        (candidate) => candidate.item.type === top.itemType && candidate.item.id === top.id,
      );
      if (!entry) break;
      const { item } = entry;
      const favorite =
        item.type === 'link' && entry.topParentType !== 'personal'
          ? data.searchIndex.find(
              (candidate) =>
                candidate.item.type === 'link-favorite' && candidate.item.linkId === item.id,
            )
          : undefined;
      const appLinks = item.appName
        ? data.searchIndex
            .filter((candidate) => candidate.item.appName === item.appName && candidate !== entry)
            .map((candidate) => candidate.item)
        : [];
      content = (
        <LinkDetails
          entry={entry}
          appLinks={appLinks}
          favoriteId={favorite?.item.id ?? null}
          mySpaceId={mySpaceId}
          onOpenLink={onOpenLink}
          onClose={back}
        />
      );
      break;
    }
    case 'item-menu': {
      const location = locateItem(data.spaces, top.itemType, top.id);
      if (!location) break;
      const { item } = location;
      content = (
        <ItemMenu
          location={location}
          profileId={profileId}
          mySpaceId={mySpaceId}
          onOpenDetails={() => {
            back();
            if (item.type === 'link' || item.type === 'link-favorite') {
              open({ kind: 'link-details', id: item.id, itemType: item.type });
            } else {
              open({ kind: 'collection-details', id: item.id });
            }
          }}
          onClose={back}
        />
      );
      break;
    }
    default:
      break;
  }

  const missing = content === null;
  useEffect(() => {
    if (missing) back();
  }, [missing, back]);
  return content;
}
