import { describe, expect, it } from 'vitest';
import { createTestApp } from './app.ts';

const { app } = await createTestApp();
const behindProxy = await createTestApp({ TRUST_PROXY: 'true' });

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
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['strict-transport-security']).toBeUndefined();
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

describe('OpenAPI document at /api/docs', () => {
  it('describes the administration, setup and invitation calls, each under its tag', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
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
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
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

  it('serves the viewer', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect([200, 302]).toContain(response.statusCode);
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

  it('serves hashed assets for a year', async () => {
    const response = await web.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('answers a missing asset with 404, never with the page', async () => {
    for (const url of ['/assets/index-old.js', '/favicon.ico', '/assets/style-old.css']) {
      const response = await web.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
    }
  });
});
