import { describe, expect, it } from 'vitest';
import { createTestApp } from '../app.ts';
import { createOrganization, createUser, PASSWORD, signIn } from '../factories.ts';

const { app, db } = await createTestApp();
const behindProxy = await createTestApp({ TRUST_PROXY: '1' });

describe('security headers', () => {
  it('sends a strict policy on every response', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/methods' });
    const csp = String(response.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // Links' icons come from the server itself (decision 0068): images from no other site.
    expect(csp).toMatch(/(^|;)img-src 'self' data:(;|$)/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('forbids framing with X-Frame-Options DENY, like frame-ancestors', async () => {
    for (const url of ['/api/auth/methods', '/api/nothing']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(String(response.headers['content-security-policy'])).toContain(
        "frame-ancestors 'none'",
      );
    }
  });

  it('adds HSTS only when the request came over TLS', async () => {
    const response = await behindProxy.app.inject({
      method: 'GET',
      url: '/api/auth/methods',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });
});

describe('caching', async () => {
  const org = await createOrganization(db);
  const person = await createUser(db, org.id);

  it('keeps no answer of the API in any cache: tokens, codes, secrets, errors', async () => {
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sessions',
      payload: { type: 'email-password', email: person.email, password: PASSWORD },
    });
    expect(signedIn.statusCode).toBe(201);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    const { headers } = await signIn(app, person);
    const calls = [
      { method: 'GET', url: '/api/auth/methods' },
      { method: 'GET', url: '/api/auth/sessions/current', headers },
      { method: 'GET', url: '/api/auth/tokens', headers },
      { method: 'POST', url: '/api/auth/tokens', headers, payload: { name: 'Script' } },
      { method: 'GET', url: '/api/auth/second-factor', headers },
      { method: 'POST', url: '/api/auth/second-factor/setup', headers },
      { method: 'POST', url: '/api/invitations/lookup', payload: { token: 'x'.repeat(43) } },
      { method: 'GET', url: '/api/setup' },
      { method: 'GET', url: '/api/consumer/collections', headers },
      { method: 'GET', url: '/api/consumer/menu' },
      { method: 'GET', url: '/api/admin/people', headers },
      { method: 'GET', url: '/api/nothing' },
      { method: 'POST', url: '/api/auth/sessions', payload: { type: 'email-password' } },
    ] as const;
    for (const call of calls) {
      const response = await app.inject(call);
      expect(response.headers['cache-control'], `${call.method} ${call.url}`).toBe('no-store');
    }
  });

  it('lets the menu be revalidated with its ETag, privately', async () => {
    const { headers } = await signIn(app, person);
    const menu = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
    expect(menu.statusCode).toBe(200);
    expect(menu.headers['cache-control']).toBe('private, no-cache');
    const again = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { ...headers, 'if-none-match': String(menu.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('private, no-cache');
  });
});

describe('errors', () => {
  it('answers an unknown API route with the one error shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/consumer/nothing-here' });
    expect([401, 404]).toContain(response.statusCode);
    const unknownAuth = await app.inject({ method: 'GET', url: '/api/nothing' });
    expect(unknownAuth.statusCode).toBe(404);
    expect(unknownAuth.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      code: 'NOT_FOUND',
      message: 'No route GET /api/nothing',
      msg: 'No route GET /api/nothing',
    });
  });

  it('refuses a body that is not JSON with 400 or 415, not 500', async () => {
    const broken = await app.inject({
      method: 'POST',
      url: '/api/auth/sessions',
      headers: { 'content-type': 'application/json' },
      payload: '{"type": "email-password",',
    });
    expect(broken.statusCode).toBe(400);
    const wrongType = await app.inject({
      method: 'POST',
      url: '/api/auth/sessions',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().code).toBe('VALIDATION_ERROR');
  });

  it('takes paths with and without the trailing slash', async () => {
    for (const url of ['/api/auth/methods', '/api/auth/methods/']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
  });
});

describe('OpenAPI document at /api/docs', async () => {
  const org = await createOrganization(db);
  const reader = await signIn(app, await createUser(db, org.id));
  const publicDocs = await createTestApp({ API_DOCS: 'public' });
  const noDocs = await createTestApp({ API_DOCS: 'off' });
  const strictPolicy = String(
    (await app.inject({ method: 'GET', url: '/api/auth/methods' })).headers[
      'content-security-policy'
    ],
  );

  it('refuses the document to anonymous callers by default, and serves it signed in', async () => {
    for (const url of [
      '/api/docs/json',
      '/api/docs/yaml',
      '/api/docs/json/',
      '/api/docs/json?x=1',
    ]) {
      const anonymous = await app.inject({ method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json().code, url).toBe('UNAUTHORIZED');
      expect(anonymous.body, url).not.toContain('/api/admin/');
      const signedIn = await app.inject({ method: 'GET', url, headers: reader.headers });
      expect(signedIn.statusCode, url).toBe(200);
      expect(signedIn.body, url).toContain('/api/admin/people');
    }
    const badToken = await app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(badToken.statusCode).toBe(401);
  });

  it('serves the document to anyone with API_DOCS=public, and nothing with off', async () => {
    const open = await publicDocs.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(open.statusCode).toBe(200);
    for (const url of [
      '/api/docs',
      '/api/docs/',
      '/api/docs/json',
      '/api/docs/static/swagger-ui.css',
    ]) {
      const off = await noDocs.app.inject({ method: 'GET', url, headers: reader.headers });
      expect(off.statusCode, url).toBe(404);
    }
  });

  it('keeps the strict Content-Security-Policy on the viewer and its files', async () => {
    expect(strictPolicy).toContain("script-src 'self'");
    for (const url of [
      '/api/docs',
      '/api/docs/',
      '/api/docs/static/swagger-initializer.js',
      '/api/docs/static/swagger-ui-bundle.js',
      '/api/docs/static/swagger-ui.css',
    ]) {
      for (const ctx of [app, publicDocs.app]) {
        const response = await ctx.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-security-policy'], url).toBe(strictPolicy);
        expect(response.headers['x-frame-options'], url).toBe('DENY');
      }
    }
  });

  it('serves a viewer page without inline script or style, loading only its own files', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(page.body).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const [, address] of page.body.matchAll(/(?:src|href)="([^"]+)"/g)) {
      expect(address, address).toMatch(/^\.\/static\//);
    }
    // The initializer fetches the document with the web app's session of this browser.
    const initializer = await app.inject({
      method: 'GET',
      url: '/api/docs/static/swagger-initializer.js',
    });
    expect(initializer.body).toContain('localStorage.getItem("my_jwt_key")');
    expect(initializer.body).toContain("'/api/docs/json'");
    // …under the key the web app keeps it.
    const { readFile } = await import('node:fs/promises');
    const constants = await readFile(
      new URL('../../../web/src/lib/constants.ts', import.meta.url),
      'utf8',
    );
    expect(constants).toContain("TOKEN_STORAGE_KEY = 'my_jwt_key'");
  });

  it('describes the administration, setup and invitation calls, each under its tag', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: reader.headers,
    });
    const paths = response.json<{
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
    }>().paths;
    const calls: [string, string, string][] = [
      ['get', '/api/admin/people', 'admin'],
      ['post', '/api/admin/people/invitations', 'admin'],
      ['post', '/api/admin/people/bulk', 'admin'],
      ['delete', '/api/admin/people/{id}', 'admin'],
      ['get', '/api/admin/people/{id}/offboarding', 'admin'],
      ['post', '/api/admin/teams', 'admin'],
      ['post', '/api/admin/teams/{id}/members', 'admin'],
      ['patch', '/api/admin/organization', 'admin'],
      ['post', '/api/admin/suggestions/{id}/accept', 'admin'],
      ['get', '/api/admin/audit-log', 'admin'],
      ['get', '/api/admin/audit-log/export', 'admin'],
      ['post', '/api/setup', 'setup'],
      ['post', '/api/invitations/accept', 'auth'],
    ];
    for (const [method, path, tag] of calls) {
      expect(paths[path]?.[method]?.tags, `${method.toUpperCase()} ${path}`).toEqual([tag]);
    }
    // Every administration call says it needs a bearer token.
    for (const [path, methods] of Object.entries(paths)) {
      if (!path.startsWith('/api/admin/')) continue;
      for (const [method, operation] of Object.entries(methods)) {
        expect(operation.security, `${method.toUpperCase()} ${path}`).toEqual([{ bearer: [] }]);
      }
    }
  });

  it('describes every call of the spec', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: reader.headers,
    });
    expect(response.statusCode).toBe(200);
    const paths = response.json<{ paths: Record<string, Record<string, unknown>> }>().paths;
    const has = (method: string, path: string) =>
      expect(paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    has('get', '/api/auth/methods');
    has('post', '/api/auth/sessions');
    has('get', '/api/auth/sessions/current');
    has('delete', '/api/auth/sessions/current');
    has('get', '/api/consumer/menu');
    has('post', '/api/consumer/collections/{id}/links');
    has('post', '/api/consumer/collections');
    has('delete', '/api/consumer/links/{id}');
    has('delete', '/api/consumer/favorites/{id}');
    has('post', '/api/consumer/collections/{id}/favorites');
    has('put', '/api/consumer/links/{id}/collection');
    has('put', '/api/consumer/favorites/{id}/collection');
    has('delete', '/api/consumer/collections/{id}');
    has('delete', '/api/consumer/collection-shares/{shareId}');
    has('get', '/api/consumer/peers');
    has('post', '/api/consumer/collection-shares');
    has('post', '/api/consumer/collection-shares/{shareId}/members');
    has('delete', '/api/consumer/collection-shares/{shareId}/members/{memberId}');
  });
});

describe('the built web app', async () => {
  const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const webDir = await mkdtemp(path.join(tmpdir(), 'signpost-web-'));
  await mkdir(path.join(webDir, 'assets'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Signpost</title>');
  await writeFile(path.join(webDir, 'assets', 'index-abc.js'), 'console.log(1)');
  const web = await createTestApp({ WEB_DIR: webDir });

  it('serves the page at / and at any page address', async () => {
    for (const url of ['/', '/somewhere/else']) {
      const response = await web.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<title>Signpost</title>');
    }
  });

  it("serves the page at each of the console's addresses, so a reload or a bookmark opens them (decision 0077)", async () => {
    const id = 'AbCdEfGhIjKlMnOpQrStU';
    for (const url of [
      '/console',
      '/console/people',
      `/console/people/${id}`,
      `/console/teams/${id}`,
      `/console/teams/${id}/space`,
      '/console/broken-links',
      '/console/organization',
      '/console/audit',
    ]) {
      const response = await web.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body, url).toContain('<title>Signpost</title>');
    }
  });

  it('serves hashed assets for a year', async () => {
    const response = await web.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates the page itself, at / and at any page address', async () => {
    for (const url of ['/', '/index.html', '/somewhere/else']) {
      const response = await web.app.inject({ method: 'GET', url });
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers a missing asset with 404, never with the page', async () => {
    for (const url of ['/assets/index-old.js', '/favicon.ico', '/assets/style-old.css']) {
      const response = await web.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
    }
  });
});
