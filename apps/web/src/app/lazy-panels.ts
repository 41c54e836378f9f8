import { lazy } from 'react';

/**
 * Panels and overlays load on first use, so the first screen (login or portal cards) stays
 * small. Add new panels here the same way.
 */
export const SearchPanel = lazy(() =>
  import('../features/search/components/search-panel').then((m) => ({ default: m.SearchPanel })),
);
export const SpacePanel = lazy(() =>
  import('../features/spaces/components/space-panel').then((m) => ({ default: m.SpacePanel })),
);
export const PortalPanels = lazy(() =>
  import('./portal-panels').then((m) => ({ default: m.PortalPanels })),
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
