import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetch-mock';
import { consumerApi } from './api-client';
import { neutralizeBidi, unicodeHost } from './display-text';

afterEach(() => vi.unstubAllGlobals());

describe('neutralizeBidi', () => {
  it('takes out embeddings, overrides and isolates, and keeps right-to-left text and marks', () => {
    expect(neutralizeBidi('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
    expect(neutralizeBidi('\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069x')).toBe('x');
    expect(neutralizeBidi('\u05e9\u05dc\u05d5\u05dd \u200fA\u200e')).toBe(
      '\u05e9\u05dc\u05d5\u05dd \u200fA\u200e',
    );
  });
});

describe('every answer of the API', () => {
  it('reaches the screens without bidirectional controls, at any depth', async () => {
    mockFetch([
      {
        path: '/api/consumer/menu',
        status: 200,
        body: {
          spaces: [{ name: 'Team\u202e kcatta', items: [{ url: 'https://a.example/\u2066' }] }],
        },
      },
    ]);
    const { data } = await consumerApi.request<unknown>('/menu');
    expect(data).toEqual({
      spaces: [{ name: 'Team kcatta', items: [{ url: 'https://a.example/' }] }],
    });
  });
});

describe('unicodeHost', () => {
  it('gives the Unicode form of a punycode host, and nothing when they agree', () => {
    expect(unicodeHost('https://xn--80ak6aa92e.com/login')).toEqual({
      ascii: 'xn--80ak6aa92e.com',
      unicode: 'аррӏе.com',
    });
    expect(unicodeHost('https://www.xn--mnchen-3ya.de/')).toEqual({
      ascii: 'www.xn--mnchen-3ya.de',
      unicode: 'www.münchen.de',
    });
    expect(unicodeHost('https://example.com/')).toBeNull();
    expect(unicodeHost('mailto:someone@example.com')).toBeNull();
    expect(unicodeHost('not an address')).toBeNull();
  });
});
