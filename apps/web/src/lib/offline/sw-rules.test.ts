// Which addresses the service worker answers with the page (decision 0065): the server's own
// rule for its page, so single sign-on, the API and the operator addresses are never touched.
import { describe, expect, it } from 'vitest';
import { isKeptIcon, isPageAddress } from './sw-rules';

const page = (path: string) => isPageAddress(new URL(path, 'https://links.example.com'));

describe('isPageAddress', () => {
  it('takes the portal and its page addresses, with their query and fragment', () => {
    for (const path of ['/', '/?q=wiki', '/#session?token=x', '/anything/else', '/apis']) {
      expect(page(path), path).toBe(true);
    }
  });

  it('leaves the API, single sign-on, the operator addresses and files to the network', () => {
    for (const path of [
      '/api',
      '/api/',
      '/api/docs',
      '/api/auth/sso/demo/start',
      '/api/auth/sso/demo/callback?code=x',
      '/healthz',
      '/readyz/',
      '/metrics',
      '/assets/index-abc.js',
      '/opensearch.xml',
      '/manifest.webmanifest',
      '/sw.js',
    ]) {
      expect(page(path), path).toBe(false);
    }
  });
});

describe('isKeptIcon', () => {
  const icon = (path: string) => isKeptIcon(new URL(path, 'https://links.example.com'));

  it('takes the icons the server keeps, at any size asked', () => {
    for (const path of [
      '/api/icons/AbCdEfGhIjKlMnOpQrStUvWxYz012345',
      '/api/icons/abcdefghijklmnop?size=96',
    ]) {
      expect(icon(path), path).toBe(true);
    }
  });

  it('leaves every other address alone', () => {
    for (const path of [
      '/api/icons/',
      '/api/icons/short',
      '/api/icons/a/b',
      '/api/consumer/menu',
      '/icons/icon-192.png',
    ]) {
      expect(icon(path), path).toBe(false);
    }
  });
});
