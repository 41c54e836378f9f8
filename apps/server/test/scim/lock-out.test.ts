// A person taken away is out at once, on every channel and by every path (decision 0084):
// SCIM's PATCH, PUT and DELETE, the console, and the command line (which runs in a process of
// its own: only the database tells this server). Their session and their access token answer
// 401 as soon as the change is answered, and their live-update stream ends within a second.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../app.ts';
import { createOrganization, createUser, signIn } from '../factories.ts';
import { openStream } from '../support/live-stream.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const admin = await createUser(db, org.id, { role: 'admin' });
const adminSession = await signIn(app, admin);
const made = await app.inject({
  method: 'POST',
  url: '/api/admin/scim-tokens',
  headers: adminSession.headers,
  payload: { name: 'Okta' },
});
const scimToken = made.json<{ token: string }>().token;

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LOCK_OUT_MS = 1000;

const scim = (method: 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
  app.inject({
    method,
    url: `/scim/v2${path}`,
    headers: {
      authorization: `Bearer ${scimToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

/** A person with a session, an access token and an open live-update stream. */
async function signedInEverywhere() {
  const person = await createUser(db, org.id);
  const session = await signIn(app, person);
  const pat = await app.inject({
    method: 'POST',
    url: '/api/auth/tokens',
    headers: session.headers,
    payload: { name: 'script' },
  });
  expect(pat.statusCode).toBe(201);
  const stream = await openStream(app, session.headers);
  expect(stream.status).toBe(200);
  expect(await stream.next()).toBe('ready');
  return { person, session, token: pat.json<{ token: string }>().token, stream };
}

const paths: [string, (person: { id: string; email: string }) => Promise<unknown>][] = [
  [
    'SCIM PATCH active false',
    (p) =>
      scim('PATCH', `/Users/${p.id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', value: { active: false } }],
      }),
  ],
  [
    'SCIM PUT active false',
    (p) => scim('PUT', `/Users/${p.id}`, { schemas: [USER], userName: p.email, active: false }),
  ],
  ['SCIM DELETE', (p) => scim('DELETE', `/Users/${p.id}`)],
  [
    'the console',
    (p) =>
      app.inject({
        method: 'PATCH',
        url: `/api/admin/people/${p.id}`,
        headers: adminSession.headers,
        payload: { status: 'disabled' },
      }),
  ],
  ['the command line', (p) => app.services.commandLine.disable(p.email)],
];

describe('a person taken away is out at once', () => {
  it.each(paths)('by %s', async (_path, takeAway) => {
    const { person, session, token, stream } = await signedInEverywhere();
    const started = performance.now();
    const answer = (await takeAway(person)) as { statusCode?: number } | string;
    if (typeof answer === 'object') expect(answer.statusCode).toBeLessThan(300);
    const menu = (authorization: string) =>
      app.inject({ method: 'GET', url: '/api/consumer/menu', headers: { authorization } });
    expect((await menu(session.headers.authorization)).statusCode).toBe(401);
    expect((await menu(`Bearer ${token}`)).statusCode).toBe(401);
    const ended = await Promise.race([
      stream.ended.then(() => performance.now() - started),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), LOCK_OUT_MS)),
    ]);
    expect(ended, 'the live-update stream ended within a second').not.toBeNull();
    expect(stream.queued).toContain('session-ended');
  });
});
