import type { BookmarkImportTarget } from '@signpost/contract';
import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  CollectionLike,
  DisplayItem,
  DisplaySpace,
  LinkLike,
  ProcessedMenu,
} from '../lib/menu/menu-types';
import { NetworkError } from '../lib/api-client';
import { INTO_MY_SPACE, spaceImportTarget } from '../lib/menu/bookmark-places';
import { useMenu } from '../lib/menu/get-menu';
import { useMenuEvents } from '../lib/menu/use-menu-events';
import { logout } from '../lib/auth';
import { lastUsedOf, useLastUsed } from '../lib/recent-lists';
import { useMenuPaintedMark } from '../lib/menu-painted-mark';
import { takeCollectionToOpen } from '../lib/page-address';
import { takePendingSearch } from '../lib/search-address';
import { useSession } from '../lib/use-session';
import { whenIdle } from '../lib/when-idle';
import { ChatIcon } from '../components/icons';
import { PortalHeader } from '../features/portal/components/portal-header';
import { LinkHealthProvider } from '../features/link-health/components/link-health-provider';
import { PortalFooter } from '../features/portal/components/portal-footer';
import { SpaceCard } from '../features/spaces/components/space-card';
import { useSearchShortcut } from '../features/search/hooks/use-search-shortcut';
import { usePendingUndo } from '../lib/undo/pending-undo';
import { openConsoleView } from '../features/admin/console-address';
import {
  AttentionButton,
  AttentionDialog,
  BookmarkExportPanel,
  BookmarkImportPanel,
  ConsentDialog,
  FeedbackDialog,
  NoOfflineCopy,
  OfflineWatch,
  PortalPanels,
  SearchPanel,
  SelectableItems,
  SettingsPanel,
  SpacePanel,
  preloadPanels,
  UndoNotice,
} from './lazy-panels';
import { useBookmarkFileDrop } from './use-bookmark-drop';
import { usePageToAdd } from './use-page-to-add';
import { usePanels, type MenuPanel, type Panel, type PanelOf } from './use-panels';

/** What the portal gives the panel on top of its stack. */
export interface PanelContext {
  data: ProcessedMenu | undefined;
  panels: ReturnType<typeof usePanels>;
  onOpenLink: (link: LinkLike) => void;
  tileProps: {
    onOpenLink: (link: LinkLike) => void;
    onOpenCollection: (collection: CollectionLike) => void;
    onAdd: (collectionId: string) => void;
    onItemMenu: (item: DisplayItem) => void;
  };
}

/** The menu panels, composed in portal-panels.tsx once the menu is there. */
const menuPanel = (panel: MenuPanel, { data, panels, onOpenLink }: PanelContext) =>
  data ? (
    <PortalPanels
      top={panel}
      data={data}
      open={panels.open}
      back={panels.back}
      closeAll={panels.closeAll}
      onOpenLink={onOpenLink}
    />
  ) : null;

/**
 * How each kind of panel is shown; each is loaded on first use (lazy-panels.ts). The type
 * asks for every kind of Panel, so a new kind cannot be left unregistered.
 */
const PANELS: { [K in Panel['kind']]: (panel: PanelOf<K>, context: PanelContext) => ReactNode } = {
  search: (panel, { data, panels, onOpenLink }) => (
    <SearchPanel
      index={data?.searchIndex ?? []}
      initialQuery={panel.query}
      onClose={panels.back}
      onOpenLink={onOpenLink}
      onOpenDetails={(entry) =>
        panels.open({ kind: 'link-details', id: entry.item.id, itemType: entry.item.type })
      }
    />
  ),
  feedback: (_panel, { panels }) => <FeedbackDialog onClose={panels.back} />,
  consent: (_panel, { panels }) => <ConsentDialog onClose={panels.back} />,
  settings: (_panel, { data, panels }) => (
    <SettingsPanel
      onClose={panels.back}
      onImportBookmarks={
        mySpaceImport(data)
          ? () => panels.open({ kind: 'bookmark-import', target: INTO_MY_SPACE })
          : undefined
      }
    />
  ),
  attention: (_panel, { panels }) => <AttentionDialog onClose={panels.back} />,
  space: (panel, { data, panels, tileProps }) => {
    const space = data?.spaces.find((candidate) => candidate.id === panel.id);
    if (!space) return null;
    const onAddCollection = space.can.addCollection
      ? () => panels.open({ kind: 'add-collection', spaceId: space.id })
      : undefined;
    return (
      <SpacePanel
        space={space}
        onClose={panels.closeAll}
        onAddCollection={onAddCollection}
        onAddTo={(collectionId) =>
          panels.open({ kind: 'add', id: collectionId, parentPanelId: collectionId })
        }
        onCollectionDetails={(collectionId) =>
          panels.open({ kind: 'collection-details', id: collectionId })
        }
        wrapItems={(collection, tiles) => (
          <SelectableItems spaces={data?.spaces ?? []} collection={collection}>
            {tiles}
          </SelectableItems>
        )}
        {...tileProps}
      />
    );
  },
  'bookmark-import': (panel, { data, panels }) => (
    <BookmarkImportPanel
      spaces={data?.spaces ?? []}
      target={panel.target}
      file={panel.file ?? null}
      onClose={panels.back}
    />
  ),
  'bookmark-export': (panel, { data, panels }) => (
    <BookmarkExportPanel spaces={data?.spaces ?? []} place={panel.place} onClose={panels.back} />
  ),
  collection: menuPanel,
  add: menuPanel,
  'add-collection': menuPanel,
  members: menuPanel,
  'collection-details': menuPanel,
  'link-details': menuPanel,
  'item-menu': menuPanel,
  'move-to': menuPanel,
};

/** Whether the person may import bookmarks into a new collection of My Space. */
function mySpaceImport(data: ProcessedMenu | undefined): boolean {
  const personal = data?.spaces.find((space) => space.type === 'personal');
  return personal ? spaceImportTarget(personal) !== null : false;
}

export function renderPanel(panel: Panel, context: PanelContext) {
  // The kind picks its entry, so the panel is of that entry's kind.
  const render = PANELS[panel.kind] as (panel: Panel, context: PanelContext) => ReactNode;
  return render(panel, context);
}

interface PortalViewProps {
  /** A message about the address the portal was opened at (a console it may not show). */
  notice?: string | null;
  onDismissNotice?: () => void;
}

/** The main portal: header, one card per space, panels, feedback and footer. */
export function PortalView({ notice = null, onDismissNotice }: PortalViewProps = {}) {
  const { t } = useTranslation();
  const menu = useMenu();
  // Changes by others reach the open portal without a reload (decision 0062), from the
  // first paint of the menu on.
  useMenuEvents(menu.data !== undefined);
  const panels = usePanels();
  const [, pushLastUsed] = useLastUsed();
  const { open } = panels;
  const openSearch = useCallback(() => open({ kind: 'search' }), [open]);
  const openAttention = useCallback(() => open({ kind: 'attention' }), [open]);
  useSearchShortcut(openSearch);
  // The portal opened from the browser's address bar (`/?q=…`, decision 0065), maybe through
  // the sign-in: the search opens with the terms.
  useEffect(() => {
    const query = takePendingSearch();
    if (query) open({ kind: 'search', query });
  }, [open]);
  // Opened from the console to show where a link lives (decision 0077): its collection.
  const menuShown = menu.data !== undefined;
  useEffect(() => {
    if (!menuShown) return;
    const id = takeCollectionToOpen();
    if (id) open({ kind: 'collection', id, parentPanelId: null });
  }, [menuShown, open]);
  const { token } = useSession();
  // The network is watched once the browser is idle after the menu is shown: the mark while it
  // is gone, the menu read again when it is back (decision 0065).
  const [watching, setWatching] = useState(false);
  const shown = menu.data !== undefined;
  useEffect(() => (shown ? whenIdle(() => setWatching(true), 2000) : undefined), [shown]);

  const onOpenLink = useCallback(
    (link: LinkLike) => pushLastUsed(lastUsedOf(link)),
    [pushLastUsed],
  );
  const onOpenCollection = useCallback(
    (collection: CollectionLike) =>
      open({ kind: 'collection', id: collection.id, parentPanelId: null }),
    [open],
  );
  const onOpenTopCollection = useCallback(
    (id: string) => open({ kind: 'collection', id, parentPanelId: null }),
    [open],
  );
  const onAdd = useCallback(
    (collectionId: string) => open({ kind: 'add', id: collectionId, parentPanelId: collectionId }),
    [open],
  );
  const onItemMenu = useCallback(
    (item: DisplayItem) => open({ kind: 'item-menu', id: item.id, itemType: item.type }),
    [open],
  );
  const onShowAll = useCallback(
    (space: DisplaySpace) => open({ kind: 'space', id: space.id }),
    [open],
  );
  const onAddCollection = useCallback(
    (space: DisplaySpace) => open({ kind: 'add-collection', spaceId: space.id }),
    [open],
  );
  const onImportBookmarks = useCallback(
    (target: BookmarkImportTarget) => open({ kind: 'bookmark-import', target }),
    [open],
  );
  const onExportBookmarks = useCallback(
    (space: DisplaySpace) => open({ kind: 'bookmark-export', place: { spaceId: space.id } }),
    [open],
  );
  const tileProps = { onOpenLink, onOpenCollection, onAdd, onItemMenu };
  const data = menu.data;
  // The server says what the person runs (decision 0008): the console opens for them only.
  const administer = data?.can.administer ? data.can : null;
  // The console is a page of its own (decision 0077): a new entry in the browser's history.
  const onOpenSuggestions = useCallback(() => openConsoleView({ section: 'suggestions' }), []);
  const onSuggest = useCallback(
    (collectionId: string) => open({ kind: 'collection-details', id: collectionId }),
    [open],
  );
  const top = panels.top;
  // A bookmark file dropped on the portal opens the import with it (decision 0087): into My
  // Space, or into the place of the import already open.
  const { back } = panels;
  const canDropBookmarks = mySpaceImport(data);
  const onBookmarkFile = useCallback(
    (file: File) => {
      if (top?.kind === 'bookmark-import') {
        back();
        open({ ...top, file });
      } else {
        open({ kind: 'bookmark-import', target: INTO_MY_SPACE, file });
      }
    },
    [top, back, open],
  );
  useBookmarkFileDrop(canDropBookmarks ? onBookmarkFile : null);
  useMenuPaintedMark(Boolean(data), preloadPanels);
  // My Space: its top-level collection, where a page sent by `#add?…` is offered.
  const mySpaceId =
    data?.spaces
      .find((space) => space.type === 'personal')
      ?.collections.find((collection) => collection.type === 'collection')?.id ?? null;
  usePageToAdd(mySpaceId, open);

  return (
    // The links that need the person (decision 0069), read once the menu shows and not from
    // a copy kept offline; their marks reach the tiles without rendering the portal again.
    <LinkHealthProvider
      menuVersion={data ? (data.etag ?? String(data.readAt ?? '')) : null}
      enabled={Boolean(data) && !data?.offline && !data?.readOnly}
      watching={watching}
    >
      <div className="portal">
        <PortalHeader
          onSearch={openSearch}
          actions={
            watching ? (
              <Suspense fallback={null}>
                <AttentionButton onOpen={openAttention} />
              </Suspense>
            ) : null
          }
        />
        {data && watching ? (
          <Suspense fallback={null}>
            <OfflineWatch menu={data} token={token} refetch={menu.refetch} />
          </Suspense>
        ) : null}
        {notice ? (
          <div className="portal-notice" role="alert">
            <p>{notice}</p>
            <button type="button" className="button" onClick={onDismissNotice}>
              {t('portal.dismissNotice')}
            </button>
          </div>
        ) : null}
        <main className="portal-main" aria-busy={!data}>
          {data ? (
            <div className="space-grid">
              {data.spaces.map((space) => (
                <SpaceCard
                  key={space.id}
                  space={space}
                  profileName={data.profile.name}
                  onShowAll={onShowAll}
                  onOpenSuggestions={onOpenSuggestions}
                  onAddCollection={onAddCollection}
                  onSuggest={onSuggest}
                  onOpenTopCollection={onOpenTopCollection}
                  onImportBookmarks={onImportBookmarks}
                  onExportBookmarks={onExportBookmarks}
                  {...tileProps}
                />
              ))}
            </div>
          ) : menu.isError ? (
            <div className="load-error" role="alert">
              {menu.error instanceof NetworkError ? (
                <Suspense fallback={<p>{t('portal.loadFailed')}</p>}>
                  <NoOfflineCopy />
                </Suspense>
              ) : (
                <p>{t('portal.loadFailed')}</p>
              )}
              <button type="button" className="button" onClick={() => void menu.refetch()}>
                {t('portal.retry')}
              </button>
            </div>
          ) : (
            <p className="loading">{t('portal.loading')}</p>
          )}
        </main>
        <button
          type="button"
          className="button feedback-button"
          onClick={() => open({ kind: 'feedback' })}
        >
          <ChatIcon />
          {t('portal.feedback')}
        </button>
        <PortalFooter
          organizationName={data?.organization.name ?? null}
          onLogout={() => void logout()}
          onConsent={() => open({ kind: 'consent' })}
          onSettings={() => open({ kind: 'settings' })}
          onAdminister={administer ? () => openConsoleView() : undefined}
        />

        <Suspense fallback={null}>
          {top ? renderPanel(top, { data, panels, onOpenLink, tileProps }) : null}
        </Suspense>
        <UndoNoticeSlot />
      </div>
    </LinkHealthProvider>
  );
}

/**
 * Where the undo notice goes. Its script loads with the first deletion (or on idle after the
 * paint), and the notice then stays mounted: it also says how an undo went.
 */
export function UndoNoticeSlot() {
  const live = usePendingUndo();
  const [needed, setNeeded] = useState(false);
  if (live && !needed) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <UndoNotice />
    </Suspense>
  ) : null;
}
