import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';

// The documentation is public here, so that the document needs no sign-in to read.
const { app } = await createTestApp({ API_DOCS: 'public' });

describe('OpenAPI document: sign-in calls', () => {
  it('describes every sign-in call under the auth tag, with its answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = response.json<{
      paths: Record<
        string,
        Record<string, { tags?: string[]; responses?: Record<string, unknown> }>
      >;
    }>().paths;
    const calls: Array<[string, string, string[]]> = [
      ['get', '/api/auth/methods', ['200']],
      ['post', '/api/auth/sessions', ['201', '401', '429']],
      ['get', '/api/auth/sessions', ['200', '401']],
      ['delete', '/api/auth/sessions/others', ['204', '401']],
      ['delete', '/api/auth/sessions/{id}', ['204', '401', '404']],
      ['post', '/api/auth/logout', ['200', '401']],
      ['get', '/api/auth/tokens', ['200', '401']],
      ['post', '/api/auth/tokens', ['201', '400', '401', '403']],
      ['delete', '/api/auth/tokens/{id}', ['204', '401', '404']],
      ['get', '/api/auth/second-factor', ['200', '401']],
      ['post', '/api/auth/second-factor/setup', ['200', '401', '403', '409']],
      ['post', '/api/auth/second-factor/enable', ['200', '400', '401']],
      ['post', '/api/auth/second-factor/disable', ['204', '400', '401']],
      ['get', '/api/auth/sso/{provider}/start', ['302', '303']],
      ['get', '/api/auth/sso/{provider}/callback', ['302']],
    ];
    for (const [method, path, statuses] of calls) {
      const operation = paths[path]?.[method];
      expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(operation?.tags).toEqual(['auth']);
      for (const status of statuses) {
        expect(operation?.responses?.[status], `${method} ${path} ${status}`).toBeDefined();
      }
    }
    expect(Object.keys(paths).some((p) => p.startsWith('/demo-idp'))).toBe(false);
  });
});
