import { withoutBidiControls } from '@signpost/contract';
import type { BrowserTab, ExtensionApi } from './browser-api';

/** The longest name a link may have (the contract's `LIMITS.name`). */
export const NAME_LIMIT = 200;

/**
 * A page's title as a link's name: on one line (a title may hold line breaks and tabs, which
 * a name may not), without bidirectional controls (which the portal would take out anyway,
 * decision 0081), and cut to the longest name, with an ellipsis where it was cut.
 */
export function nameFromTitle(title: string): string {
  const line = withoutBidiControls(title)
    // eslint-disable-next-line no-control-regex
    .replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim();
  const characters = Array.from(line);
  return characters.length <= NAME_LIMIT
    ? line
    : `${characters
        .slice(0, NAME_LIMIT - 1)
        .join('')
        .trimEnd()}…`;
}

/** The page the popup adds: its address and title, empty where the browser does not tell. */
export interface CurrentPage {
  url: string;
  title: string;
}

/**
 * The tab the person is on. Opened from the toolbar, the popup sees the active tab of its
 * window (activeTab grants its address and title for this click). Opened as a page of its
 * own (its address in a tab), the active tab is the popup itself: the page is then the tab
 * used last before it.
 */
export async function currentPage(api: ExtensionApi): Promise<CurrentPage> {
  const own = api.runtime.getURL('');
  const isOwn = (tab: BrowserTab) => (tab.url ?? '').startsWith(own);
  const [active] = await api.tabs.query({ active: true, currentWindow: true });
  let tab: BrowserTab | undefined = active;
  if (!tab || isOwn(tab)) {
    const others = (await api.tabs.query({ currentWindow: true })).filter(
      (candidate) => !candidate.active && !isOwn(candidate),
    );
    tab = others.sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
  }
  const url = tab?.url ?? '';
  // Only a web page is worth adding; a browser page (settings, a new tab) is not.
  const web = /^https?:/i.test(url);
  return { url: web ? url : '', title: web ? nameFromTitle(tab?.title ?? '') : '' };
}
