import { useEffect } from 'react';
import { takeAddFragment, takePageToAdd } from '../lib/add-fragment';
import type { Panel } from './use-panels';

/**
 * Opens the add panel of My Space with the page sent by `#add?…` (decision 0066) once the
 * menu is there: the one the address carried when the app started (taken out of it by
 * `App`, and kept through the sign-in), or one that arrives while the portal is open.
 */
export function usePageToAdd(mySpaceId: string | null, open: (panel: Panel) => void) {
  useEffect(() => {
    if (!mySpaceId) return;
    const offer = () => {
      takeAddFragment();
      const page = takePageToAdd();
      if (!page) return;
      open({
        kind: 'add',
        id: mySpaceId,
        parentPanelId: mySpaceId,
        draft: { url: page.url, name: page.name, description: '' },
      });
    };
    offer();
    window.addEventListener('hashchange', offer);
    return () => window.removeEventListener('hashchange', offer);
  }, [mySpaceId, open]);
}
