/**
 * The part of the WebExtension API the popup uses, with the promise-returning signatures that
 * Chromium (`chrome.*`, Manifest V3) and Firefox (`browser.*`) share. Declared here rather than
 * taken from a types package: the popup uses eight calls, each named below.
 */
export interface BrowserTab {
  id?: number;
  /** Absent unless the extension may see the tab's page (activeTab or a host permission). */
  url?: string;
  title?: string;
  active: boolean;
  /** When the tab was last active, in milliseconds (Chromium 121, Firefox). */
  lastAccessed?: number;
}

export interface ExtensionApi {
  storage: {
    local: {
      get(keys: string[]): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      remove(keys: string[]): Promise<void>;
    };
  };
  tabs: {
    query(query: { active?: boolean; currentWindow?: boolean }): Promise<BrowserTab[]>;
    create(properties: { url: string }): Promise<unknown>;
  };
  permissions: {
    request(permissions: { origins: string[] }): Promise<boolean>;
    contains(permissions: { origins: string[] }): Promise<boolean>;
  };
  runtime: {
    getURL(path: string): string;
  };
}

/** `browser` in Firefox, `chrome` in Chromium: the same calls, promises in both. */
export function extensionApi(): ExtensionApi {
  const scope = globalThis as unknown as { browser?: ExtensionApi; chrome?: ExtensionApi };
  const api = scope.browser ?? scope.chrome;
  if (!api?.storage) throw new Error('Not running as a browser extension');
  return api;
}
