import { Suspense, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionLike, DisplayItem, DisplaySpace, LinkLike } from '../lib/menu/menu-types';
import { useMenu } from '../lib/menu/get-menu';
import { logout } from '../lib/auth';
import { useLastUsed } from '../lib/recent-lists';
import { useMenuPaintedMark } from '../lib/menu-painted-mark';
import { ChatIcon } from '../components/icons';
import { PortalHeader } from '../features/portal/components/portal-header';
import { PortalFooter } from '../features/portal/components/portal-footer';
import { SpaceCard } from '../features/spaces/components/space-card';
import { useSearchShortcut } from '../features/search/hooks/use-search-shortcut';
import {
  ConsentDialog,
  FeedbackDialog,
  PortalPanels,
  SearchPanel,
  SettingsPanel,
  SpacePanel,
  preloadPanels,
} from './lazy-panels';
import { usePanels } from './use-panels';

/** Panels composed in portal-panels.tsx (collections, add, members, details, item menus). */
const PORTAL_PANELS = {
  collection: true,
  add: true,
  members: true,
  'collection-details': true,
  'link-details': true,
  'item-menu': true,
};

/** The main portal: header, one card per space, panels, feedback and footer. */
export function PortalView() {
  const { t } = useTranslation();
  const menu = useMenu();
  const panels = usePanels();
  const [, pushLastUsed] = useLastUsed();
  const { open } = panels;
  const openSearch = useCallback(() => open({ kind: 'search' }), [open]);
  useSearchShortcut(openSearch);

  const onOpenLink = useCallback(
    (link: LinkLike) =>
      pushLastUsed({ id: link.id, name: link.name, url: link.url, icon: link.icon }),
    [pushLastUsed],
  );
  const onOpenCollection = useCallback(
    (collection: CollectionLike) =>
      open({ kind: 'collection', id: collection.id, parentPanelId: null }),
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
  const tileProps = { onOpenLink, onOpenCollection, onAdd, onItemMenu };
  const data = menu.data;
  const top = panels.top;
  useMenuPaintedMark(Boolean(data), preloadPanels);

  return (
    <div className="portal">
      <PortalHeader onSearch={openSearch} />
      <main className="portal-main" aria-busy={!data}>
        {data ? (
          <div className="space-grid">
            {data.spaces.map((space) => (
              <SpaceCard
                key={space.id}
                space={space}
                profileName={data.profile.name}
                onShowAll={onShowAll}
                {...tileProps}
              />
            ))}
          </div>
        ) : menu.isError ? (
          <div className="load-error" role="alert">
            <p>{t('portal.loadFailed')}</p>
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
      />

      <Suspense fallback={null}>
        {top?.kind === 'search' ? (
          <SearchPanel
            index={data?.searchIndex ?? []}
            onClose={panels.back}
            onOpenLink={onOpenLink}
          />
        ) : null}
        {top?.kind === 'feedback' ? <FeedbackDialog onClose={panels.back} /> : null}
        {top?.kind === 'consent' ? <ConsentDialog onClose={panels.back} /> : null}
        {top?.kind === 'settings' ? <SettingsPanel onClose={panels.back} /> : null}
        {top?.kind === 'space' && data
          ? (() => {
              const space = data.spaces.find((candidate) => candidate.id === top.id);
              return space ? (
                <SpacePanel space={space} onClose={panels.closeAll} {...tileProps} />
              ) : null;
            })()
          : null}
        {top && data && top.kind in PORTAL_PANELS ? (
          <PortalPanels
            top={top}
            data={data}
            open={open}
            back={panels.back}
            closeAll={panels.closeAll}
            onOpenLink={onOpenLink}
          />
        ) : null}
      </Suspense>
    </div>
  );
}
