import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ICON_SIZES } from './icon';

const manifest = JSON.parse(
  readFileSync(new URL('../static/manifest.json', import.meta.url), 'utf8'),
) as Record<string, unknown> & {
  permissions: string[];
  optional_host_permissions: string[];
  action: { default_popup: string };
  icons: Record<string, string>;
  browser_specific_settings: { gecko: { id: string; strict_min_version: string } };
};

/** The promises of apps/extension/README.md and decision 0066, held to the manifest. */
describe('the manifest', () => {
  it('is Manifest V3 with a popup and no background', () => {
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.action.default_popup).toBe('popup.html');
    expect(manifest.background).toBeUndefined();
    expect(manifest.content_scripts).toBeUndefined();
  });

  it('asks at install for the current tab on a click, and its own storage, nothing more', () => {
    expect(manifest.permissions).toEqual(['activeTab', 'storage']);
    expect(manifest.host_permissions).toBeUndefined();
  });

  it('asks for the portal’s host only when the person enters it', () => {
    expect(manifest.optional_host_permissions).toEqual(['https://*/*', 'http://*/*']);
    expect(JSON.stringify(manifest)).not.toContain('<all_urls>');
  });

  it('names the Firefox release that has every key it uses', () => {
    // optional_host_permissions arrived in Firefox 128.
    expect(manifest.browser_specific_settings.gecko.strict_min_version).toBe('128.0');
    expect(manifest.browser_specific_settings.gecko.id).toMatch(/^[\w.-]+@[\w.-]+$/);
    expect(manifest.minimum_chrome_version).toBe('121');
  });

  it('names an icon for every size the build draws', () => {
    expect(manifest.icons).toEqual(
      Object.fromEntries(ICON_SIZES.map((size) => [String(size), `icons/icon-${size}.png`])),
    );
  });
});
