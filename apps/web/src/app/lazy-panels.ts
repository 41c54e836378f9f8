import { lazy, type ComponentType } from 'react';
import { loadReauthDialog } from '../features/reauth/components/reauthentication-host';
import type { OfflineWatchProps } from '../lib/offline/offline-mark';
import { whenIdle } from '../lib/when-idle';

/**
 * Panels and overlays load on first use, so the first screen (login or portal cards) stays
 * small. Add new panels here the same way.
 */
const loadSearchPanel = () => import('../features/search/components/search-panel');
const loadSpacePanel = () => import('../features/spaces/components/space-panel');
const loadPortalPanels = () => import('./portal-panels');
const loadUndoNotice = () => import('../features/undo/components/undo-notice');
const loadOfflineWatch = () => import('../lib/offline/offline-mark');

export const SearchPanel = lazy(() => loadSearchPanel().then((m) => ({ default: m.SearchPanel })));
export const SpacePanel = lazy(() => loadSpacePanel().then((m) => ({ default: m.SpacePanel })));
/** The choice of several items at once (decision 0075), drawn inside Show all. */
const loadSelectableItems = () => import('../features/selection/components/selectable-items');
export const SelectableItems = lazy(() =>
  loadSelectableItems().then((m) => ({ default: m.SelectableItems })),
);
export const PortalPanels = lazy(() =>
  loadPortalPanels().then((m) => ({ default: m.PortalPanels })),
);
/** The notice after a deletion: loaded when there is one to show (decision 0063). */
export const UndoNotice = lazy(() => loadUndoNotice().then((m) => ({ default: m.UndoNotice })));
/**
 * The portal's watch on the network and its offline mark, and what it says offline without a
 * copy of the menu (decision 0065): loaded after the paint with the panels, and from the
 * service worker's copy when the portal opens offline. Offline before it could load, with no
 * service worker to give it: nothing, rather than no portal.
 */
export const OfflineWatch = lazy<ComponentType<OfflineWatchProps>>(() =>
  loadOfflineWatch().then(
    (m) => ({ default: m.OfflineWatch }),
    () => ({ default: () => null }),
  ),
);
export const NoOfflineCopy = lazy<ComponentType>(() =>
  loadOfflineWatch().then(
    (m) => ({ default: m.NoOfflineCopy }),
    () => ({ default: () => null }),
  ),
);
export const FeedbackDialog = lazy(() =>
  import('../features/portal/components/feedback-dialog').then((m) => ({
    default: m.FeedbackDialog,
  })),
);
export const ConsentDialog = lazy(() =>
  import('../features/portal/components/consent-dialog').then((m) => ({
    default: m.ConsentDialog,
  })),
);
export const SettingsPanel = lazy(() =>
  import('../features/settings/components/settings-panel').then((m) => ({
    default: m.SettingsPanel,
  })),
);
/** The header's button to them: loaded after the paint, with the reading of the list. */
export const AttentionButton = lazy(() =>
  import('../features/link-health/components/attention-button').then((m) => ({
    default: m.AttentionButton,
  })),
);
/** The links that need attention (decision 0069): loaded when the header's button is used. */
export const AttentionDialog = lazy(() =>
  import('../features/link-health/components/attention-dialog').then((m) => ({
    default: m.AttentionDialog,
  })),
);
/** Bookmarks in and out (decision 0087): loaded when one of them is opened. */
export const BookmarkImportPanel = lazy(() =>
  import('../features/bookmarks/components/import-dialog').then((m) => ({
    default: m.BookmarkImportPanel,
  })),
);
export const BookmarkExportPanel = lazy(() =>
  import('../features/bookmarks/components/export-dialog').then((m) => ({
    default: m.BookmarkExportPanel,
  })),
);
export const AdminConsole = lazy(() =>
  import('../features/admin/components/admin-console').then((m) => ({
    default: m.AdminConsole,
  })),
);

/**
 * Loads the panels people open most (search, collections, Show all), the undo notice, the
 * network watch and the "Confirm it's you" dialog once the portal is painted and the browser is idle, so that
 * opening one later does not wait for its script, nor parse it in the middle of the
 * interaction. The first screen does not wait for them.
 */
export function preloadPanels() {
  const load = () => {
    void Promise.all([
      loadSearchPanel(),
      loadSpacePanel(),
      loadSelectableItems(),
      loadPortalPanels(),
      loadUndoNotice(),
      loadOfflineWatch(),
      loadReauthDialog(),
    ]).catch(() => {
      // A head start only: a panel whose script failed to load reports it when it opens.
    });
  };
  whenIdle(load, 2000);
}
