// The attack table of docs/security.md ("The attack table"): each row an attack — its class,
// the request, and the answer it must get. Every row also asserts that the database is
// exactly as it was (or, for an address the server takes, changed only where the row says),
// that nothing was logged at error level, that the answer leaks nothing (no stack, no SQL, no
// file of the server, no secret or data of other people), that no header carries a line
// break, and that no object prototype was polluted. To add an attack, add a row to ATTACKS.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../src/db/client.ts';
import { links, sessions, ssoAttempts } from '../../src/db/schema/index.ts';
import { createTestApp, type TestContext } from '../app.ts';
import { createOrganization, createUser, PASSWORD, signIn } from '../factories.ts';
import {
  captureLogs,
  databaseDigest,
  ERROR_LEVEL,
  LEAK_PATTERNS,
  routesOf,
  startListener,
} from '../support/attack-checks.ts';
import { HOSTILE_URLS } from '../support/hostile-urls.ts';
import { codeAt, stepNow, turnOnSecondFactor } from '../support/second-factor.ts';
import { followProvider } from '../support/sso-browser.ts';
import { startTestProvider } from '../support/sso-provider.ts';
import { createSignedInCast, createWorld, type Person } from '../support/world.ts';

// ---------------------------------------------------------------------------------------
// The place: one app (with a configured single sign-on provider and a built web app), one
// cast of people in two organizations, their collections and links, and a listener that
// would see any connection the server made to an address someone gave it.

type Headers = Record<string, string>;

const PUBLIC_URL = 'http://signpost.test';
const idp = await startTestProvider([
  {
    clientId: 'signpost',
    clientSecret: 'secret-one',
    redirectUri: `${PUBLIC_URL}/api/auth/sso/acme/callback`,
  },
]);
const listener = await startListener();
afterAll(async () => {
  await idp.stop();
  await listener.close();
});

// The web app's files, with a file next to them that no address may reach.
const SECRET_FILE_TEXT = `not for the web ${randomBytes(8).toString('hex')}`;
const base = await mkdtemp(path.join(tmpdir(), 'signpost-attacks-'));
const webDir = path.join(base, 'web');
await mkdir(path.join(webDir, 'assets'), { recursive: true });
await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Signpost</title>');
await writeFile(path.join(webDir, 'assets', 'index-abc.js'), 'console.log(1)');
await writeFile(path.join(base, 'package.json'), SECRET_FILE_TEXT);
await writeFile(path.join(base, 'secret.txt'), SECRET_FILE_TEXT);

const { app, db } = await createTestApp({
  LOG_LEVEL: 'warn',
  // Low enough for the rows of the address limit to reach it (successful sign-ins of the
  // cast do not count).
  LOGIN_MAX_PER_ADDRESS: '5',
  PUBLIC_URL,
  WEB_DIR: webDir,
  OIDC_PROVIDERS: JSON.stringify([
    {
      id: 'acme',
      name: 'Acme SSO',
      issuer: idp.issuer,
      clientId: 'signpost',
      clientSecret: 'secret-one',
      organization: 'Acme',
      allowedDomains: ['acme.test'],
      linkExistingAccounts: true,
    },
  ]),
});
const logs = captureLogs(app);
// A second app behind one trusted proxy hop, for the rows of the address limit.
const proxied: TestContext = await createTestApp({
  LOG_LEVEL: 'warn',
  TRUST_PROXY: '1',
  LOGIN_MAX_PER_ADDRESS: '3',
});
const proxiedLogs = captureLogs(proxied.app);

const cast = await createSignedInCast(app, db);
const world = await createWorld(db, cast);
const { owner, member, colleague, orgAdmin, outsider } = cast;
const { spaces, links: linkOf, favorite } = world;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A person of an organization, signed in now. */
async function personIn(organizationId: string, email?: string): Promise<Person> {
  const user = await createUser(db, organizationId, email ? { email } : {});
  return { ...user, headers: (await signIn(app, user)).headers };
}

// People whose sessions signed in more than the re-authentication window ago: one without a
// second factor, one with it.
const staleOne = await personIn(cast.org.id);
const staleTwo = await personIn(cast.org.id);
await turnOnSecondFactor(app, staleTwo.headers);
await db
  .update(sessions)
  .set({ reauthenticatedAt: sql`now() - interval '6 minutes'` })
  .where(sql`${sessions.userId} IN (${staleOne.id}, ${staleTwo.id})`);

// A person who has set the second factor up and not turned it on yet: the row that turns it
// on gets the recovery codes.
const enabler = await personIn(cast.org.id);
const enablerSetup = await app.inject({
  method: 'POST',
  url: '/api/auth/second-factor/setup',
  headers: enabler.headers,
});
expect(enablerSetup.statusCode, enablerSetup.body).toBe(200);
const enablerSecret = enablerSetup.json<{ secret: string }>().secret;

// A person of Acme with the second factor on, known to the provider: signing in through it
// waits for the code, with a ticket in the address and a cookie of the browser.
const acme = await createOrganization(db, { name: 'Acme' });
const factorPerson = await personIn(acme.id, 'factor@acme.test');
const factorOfSso = await turnOnSecondFactor(app, factorPerson.headers);
let ssoAddress = 0;
async function ssoTicket() {
  idp.nextLogin = { sub: 'factor-sub', email: factorPerson.email, email_verified: true };
  const start = await app.inject({
    method: 'GET',
    url: '/api/auth/sso/acme/start',
    headers: { host: 'signpost.test' },
    remoteAddress: `10.6.0.${(ssoAddress += 1)}`,
  });
  const cookie = /signpost_sso=([^;]*)/.exec(String(start.headers['set-cookie']))?.[1];
  const { pathname, search } = new URL(
    await followProvider(String(start.headers.location), 'acme'),
  );
  const back = await app.inject({
    method: 'GET',
    url: `${pathname}${search}`,
    headers: { cookie: `signpost_sso=${cookie}` },
  });
  const ticket = /#sso-second-factor\?ticket=([^&]+)$/.exec(String(back.headers.location))?.[1];
  const browser = /signpost_sso_2fa=([^;]*)/.exec(String(back.headers['set-cookie']))?.[1];
  expect(ticket && browser, String(back.headers.location)).toBeTruthy();
  return { ticket: decodeURIComponent(ticket!), browser: browser! };
}
const finishSso = (
  ticket: { ticket: string; browser: string | null },
  proof: Record<string, string>,
) => ({
  method: 'POST' as const,
  url: '/api/auth/sso/second-factor',
  remoteAddress: '10.6.1.1',
  headers: (ticket.browser ? { cookie: `signpost_sso_2fa=${ticket.browser}` } : {}) as Headers,
  payload: { ticket: ticket.ticket, ...proof },
});
// One used, one for another browser, one expired.
const usedTicket = await ssoTicket();
const used = await app.inject(
  finishSso(usedTicket, { recoveryCode: factorOfSso.recoveryCodes[0]! }),
);
expect(used.statusCode, used.body).toBe(201);
const foreignTicket = await ssoTicket();
const expiredTicket = await ssoTicket();
await db.execute(
  sql`UPDATE sso_second_factor_tickets SET expires_at = now() - interval '1 second'
      WHERE ticket_hash = ${sha256(expiredTicket.ticket)}`,
);

// The address limit of sign-in, reached with a new X-Forwarded-For each time: from a client
// reaching the app directly, and from a client behind the trusted proxy of `proxied`.
const spray = (
  target: Pick<TestContext, 'app'>,
  n: number,
  remoteAddress: string,
  client?: string,
) =>
  target.app.inject({
    method: 'POST',
    url: '/api/auth/sessions',
    remoteAddress,
    headers: {
      'x-forwarded-for': [`203.0.113.${n % 250}`, `198.18.${n % 250}.1`, client]
        .filter(Boolean)
        .join(', '),
    },
    payload: { type: 'email-password', email: `nobody${n}@example.test`, password: 'guess' },
  });
for (let n = 0; n < 5; n += 1) await spray({ app }, n, '198.51.100.77');
for (let n = 0; n < 3; n += 1) await spray(proxied, n, '127.0.0.1', '192.0.2.7');

/** Credentials that must get 401 on every route that needs a session. */
async function deadCredentials() {
  // A session ended by signing out.
  const loggedOut = await signIn(app, colleague);
  await app.inject({ method: 'POST', url: '/api/auth/logout', headers: loggedOut.headers });
  // A session past its absolute expiry, and one idle for longer than allowed.
  const expired = await signIn(app, colleague);
  await db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(sessions.tokenHash, sha256(expired.token)));
  const idle = await signIn(app, colleague);
  await db
    .update(sessions)
    .set({ lastSeenAt: new Date(Date.now() - 400 * 24 * 3600_000) })
    .where(eq(sessions.tokenHash, sha256(idle.token)));
  // Personal access tokens: one revoked, one expired.
  const makeToken = async (name: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: colleague.headers,
      payload: { name, expiresInDays: 1 },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ token: string; accessToken: { id: string } }>();
  };
  const revokedToken = await makeToken('revoked');
  const revoke = await app.inject({
    method: 'DELETE',
    url: `/api/auth/tokens/${revokedToken.accessToken.id}`,
    headers: colleague.headers,
  });
  expect(revoke.statusCode).toBe(204);
  const expiredToken = await makeToken('expired');
  await db.execute(
    sql`UPDATE access_tokens SET expires_at = now() - interval '1 minute' WHERE id = ${expiredToken.accessToken.id}`,
  );
  return {
    'no credentials': {},
    'a made-up token': bearer(randomBytes(32).toString('base64url')),
    'a malformed header': { authorization: 'Bearer a b\tc' },
    'a signed-out session': loggedOut.headers,
    'an expired session': expired.headers,
    'an idle session': idle.headers,
    'a revoked access token': bearer(revokedToken.token),
    'an expired access token': bearer(expiredToken.token),
  } satisfies Record<string, Record<string, string>>;
}
const DEAD = await deadCredentials();
const DEAD_TOKENS = Object.values(DEAD as Record<string, Headers>).map(
  (h) => h.authorization?.slice(7) ?? '',
);

// What a refusal must never show: everyone's e-mail, password hash and live token, and the
// names and addresses of what people keep.
const personalData = async () => {
  const rows = await selectRows<{ value: string }>(
    db,
    sql`SELECT email AS value FROM users UNION SELECT password_hash FROM users WHERE password_hash IS NOT NULL
        UNION SELECT token_hash FROM sessions UNION SELECT name FROM collections WHERE NOT is_root
        UNION SELECT url FROM links UNION SELECT name FROM links`,
  );
  return [
    ...rows.map((row) => row.value),
    ...[owner, member, colleague, orgAdmin, outsider].map((p) => p.headers.authorization.slice(7)),
    ...DEAD_TOKENS.filter((t) => t.length > 20),
    SECRET_FILE_TEXT,
  ];
};
const SECRETS = await personalData();

// ---------------------------------------------------------------------------------------
// The table.

interface Attack {
  /** The class of attack, as listed in docs/security.md. */
  class: string;
  name: string;
  /** Who sends it: a person of the cast (their session), or anonymous. */
  as?: Person;
  request: InjectOptions & { headers?: Headers };
  /** The answer: its status (one of these) and, for an error, its code. */
  status: number | number[];
  code?: string;
  /**
   * For an attack the server may take (an unusual but harmless address, a sign-in started):
   * the tables that may change when it answers 2xx/3xx. Every other table must not change.
   */
  changes?: string[];
  /** What else must hold: how a taken address was stored, a header that must be absent. */
  check?: (response: LightMyRequestResponse) => void | Promise<void>;
  /** Another app (and its database) to send it to: the one behind a trusted proxy. */
  on?: TestContext;
}

const c = '/api/consumer';
const json = { 'content-type': 'application/json' };
const okLink = { name: 'A link', url: 'https://example.com/fine' };

/** A POST of a link to the owner's own collection. */
const postLink = (payload: unknown, headers: Headers = {}) => ({
  method: 'POST' as const,
  url: `${c}/collections/${spaces.own.id}/links`,
  payload: payload as string,
  headers: { ...json, ...headers },
});

/** The newest link of the owner's own collection: what a taken address was stored as. */
async function newestLink() {
  const rows = await db.select().from(links).where(eq(links.collectionId, spaces.own.id));
  return rows.sort((a, b) => b.position - a.position)[0];
}

// Storing a link changes the links and the version of the scope it is in (menu_scopes);
// nothing else.
// A stored link is also due for its icon and its check (migrations 0014 and 0015).
const LINK_STORED = ['links', 'menu_scopes', 'link_icons', 'link_checks'];

/** Nested `depth` times: [[[…]]] or {"a":{"a":…}}. */
const nested = (depth: number, open: string, close: string, inner = '1') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

const objectLikeness: Attack[] = [
  // Object-level authorization: a request with two ids, each must be authorized on its own.
  {
    class: 'object-level authorization',
    name: "a share member moves their link into the owner's unshared collection",
    as: member,
    request: {
      method: 'PUT',
      url: `${c}/links/${linkOf.memberInShare.id}/collection`,
      payload: { collectionId: spaces.own.id },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "a colleague moves their link into the owner's collection",
    as: colleague,
    request: {
      method: 'PUT',
      url: `${c}/links/${linkOf.colleagues.id}/collection`,
      payload: { collectionId: spaces.own.id },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "the owner moves their link into another organization's collection",
    as: owner,
    request: {
      method: 'PUT',
      url: `${c}/links/${linkOf.own.id}/collection`,
      payload: { collectionId: spaces.outsiders.id },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "a person of another organization moves the owner's link into their collection",
    as: outsider,
    request: {
      method: 'PUT',
      url: `${c}/links/${linkOf.own.id}/collection`,
      payload: { collectionId: spaces.outsiders.id },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: 'the owner adds a person of another organization to their share',
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collection-shares/${spaces.share.id}/members`,
      payload: { memberIds: [outsider.id] },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "a share member adds a colleague to the owner's share",
    as: member,
    request: {
      method: 'POST',
      url: `${c}/collection-shares/${spaces.share.id}/members`,
      payload: { memberIds: [colleague.id] },
    },
    status: 403,
    code: 'FORBIDDEN',
  },
  {
    class: 'object-level authorization',
    name: "a colleague removes a member from the owner's share",
    as: colleague,
    request: {
      method: 'DELETE',
      url: `${c}/collection-shares/${spaces.share.id}/members/${member.id}`,
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: 'the owner shares their collection with a person of another organization',
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collection-shares`,
      payload: { collectionId: spaces.own.id, memberIds: [outsider.id] },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "a colleague shares the owner's collection",
    as: colleague,
    request: {
      method: 'POST',
      url: `${c}/collection-shares`,
      payload: { collectionId: spaces.own.id, memberIds: [colleague.id] },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "the owner moves their favorite into a colleague's collection",
    as: owner,
    request: {
      method: 'PUT',
      url: `${c}/favorites/${favorite.id}/collection`,
      payload: { collectionId: spaces.colleagues.id },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "a colleague moves the owner's favorite into their own My Space",
    as: colleague,
    request: {
      method: 'PUT',
      url: `${c}/favorites/${favorite.id}/collection`,
      payload: { collectionId: colleague.rootId },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "the owner favorites another organization's link",
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collections/${owner.rootId}/favorites`,
      payload: { type: 'link', id: linkOf.outsiders.id },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "the owner puts a favorite into a colleague's My Space",
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collections/${colleague.rootId}/favorites`,
      payload: { type: 'link', id: linkOf.own.id },
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "a person of another organization deletes the owner's collection",
    as: outsider,
    request: { method: 'DELETE', url: `${c}/collections/${spaces.own.id}` },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: 'an administrator of another organization reads a person of this one',
    as: outsider,
    request: { method: 'GET', url: `/api/admin/people/${owner.id}` },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    class: 'object-level authorization',
    name: "a colleague ends the owner's session",
    as: colleague,
    request: { method: 'DELETE', url: `/api/auth/sessions/${owner.id}` },
    status: 404,
    code: 'NOT_FOUND',
  },

  // Mass assignment: owner, organization and creator fields are never taken from a body.
  ...(
    [
      [
        'a collection owned by someone else',
        `${c}/collections`,
        'POST',
        { name: 'Mine', parentId: spaces.own.id, ownerUserId: colleague.id },
      ],
      [
        'a collection in another organization',
        `${c}/collections`,
        'POST',
        { name: 'Mine', parentId: spaces.own.id, organizationId: outsider.organizationId },
      ],
      [
        'a collection of another owner type',
        `${c}/collections/${spaces.own.id}`,
        'PATCH',
        { ownerType: 'organization' },
      ],
      [
        'a link created by someone else',
        `${c}/collections/${spaces.own.id}/links`,
        'POST',
        { ...okLink, createdBy: colleague.id },
      ],
      [
        'a link in another organization',
        `${c}/collections/${spaces.own.id}/links`,
        'POST',
        { ...okLink, organizationId: outsider.organizationId },
      ],
      [
        'a link moved by its edit',
        `${c}/links/${linkOf.own.id}`,
        'PATCH',
        { collectionId: spaces.colleagues.id },
      ],
      [
        'a link of another creator by its edit',
        `${c}/links/${linkOf.own.id}`,
        'PATCH',
        { createdBy: colleague.id },
      ],
      [
        'a share created by someone else',
        `${c}/collection-shares`,
        'POST',
        { collectionId: spaces.own.id, memberIds: [member.id], createdBy: colleague.id },
      ],
      [
        'a favorite of someone else',
        `${c}/collections/${owner.rootId}/favorites`,
        'POST',
        { type: 'link', id: linkOf.organization.id, userId: colleague.id },
      ],
      [
        'a suggestion by someone else',
        `${c}/collections/${spaces.organization.id}/suggestions`,
        'POST',
        { ...okLink, suggestedBy: colleague.id },
      ],
      [
        'an access token of someone else',
        '/api/auth/tokens',
        'POST',
        { name: 'x', userId: colleague.id },
      ],
    ] as const
  ).map(([what, url, method, payload]): Attack => ({
    class: 'mass assignment',
    name: `${what}: ${Object.keys(payload).at(-1)}`,
    as: owner,
    request: { method, url, payload },
    status: 400,
    code: 'VALIDATION_ERROR',
    check: (response) => expect(response.json().message).toMatch(/unknown property/),
  })),
  {
    class: 'mass assignment',
    name: 'an administrator moves a person to another organization',
    as: orgAdmin,
    request: {
      method: 'PATCH',
      url: `/api/admin/people/${member.id}`,
      payload: { organizationId: outsider.organizationId },
    },
    status: 400,
    code: 'VALIDATION_ERROR',
  },
];

// Type confusion: arrays, objects, numbers where strings go; huge and negative numbers.
const typeConfusion: Attack[] = [
  ...[['x'], { a: 'x' }, 1, 1e308, true, null].map((name): Attack => ({
    class: 'type confusion',
    name: `a link name of ${JSON.stringify(name)}`,
    as: owner,
    request: postLink({ ...okLink, name }),
    status: 400,
    code: 'VALIDATION_ERROR',
  })),
  ...[['https://example.com'], { href: 'https://example.com' }, 42].map((url): Attack => ({
    class: 'type confusion',
    name: `a link address of ${JSON.stringify(url)}`,
    as: owner,
    request: postLink({ ...okLink, url }),
    status: 400,
    code: 'VALIDATION_ERROR',
  })),
  {
    class: 'type confusion',
    name: 'share members as one string instead of a list',
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collection-shares/${spaces.share.id}/members`,
      payload: { memberIds: colleague.id },
    },
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'type confusion',
    name: 'share members as objects',
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collection-shares/${spaces.share.id}/members`,
      payload: { memberIds: [{ id: colleague.id }] },
    },
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'type confusion',
    name: 'an order item id as a number',
    as: owner,
    request: {
      method: 'PUT',
      url: `${c}/collections/${spaces.own.id}/order`,
      payload: { items: [{ type: 'link', id: 1 }] },
    },
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'type confusion',
    name: 'a whole body that is an array',
    as: owner,
    request: postLink([okLink]),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'type confusion',
    name: 'a whole body that is a string',
    as: owner,
    request: postLink('"https://example.com"'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  ...['1e309', '1e20', '-1', '-1e20', '0.5', '9'.repeat(400)].map((days): Attack => ({
    class: 'type confusion',
    name: `an access token lasting ${days.slice(0, 20)} days`,
    as: owner,
    request: {
      method: 'POST',
      url: '/api/auth/tokens',
      headers: json,
      payload: `{"name":"x","expiresInDays":${days}}`,
    },
    status: 400,
    code: 'VALIDATION_ERROR',
  })),
  ...[
    'limit=-1',
    'limit=0',
    'limit=1e400',
    `limit=${'9'.repeat(400)}`,
    'offset=-1',
    'offset=-99999999999999999999',
    'offset=99999999999999999999',
    'offset=1.5',
    'limit=abc',
    'limit[]=1',
    'limit=1&limit=2',
    'query[]=a',
  ].map((query): Attack => ({
    class: 'type confusion',
    name: `the peer search with ${query.slice(0, 40)}`,
    as: owner,
    request: { method: 'GET', url: `${c}/peers?${query}` },
    status: 400,
    code: 'VALIDATION_ERROR',
  })),
  ...['limit=-1', 'offset=-1', `limit=${'9'.repeat(30)}`, 'limit=abc'].map((query): Attack => ({
    class: 'type confusion',
    name: `the people list with ${query}`,
    as: orgAdmin,
    request: { method: 'GET', url: `/api/admin/people?${query}` },
    status: 400,
    code: 'VALIDATION_ERROR',
  })),
];

// Prototype pollution through JSON bodies and query strings.
const prototypePollution: Attack[] = [
  ...[
    [
      '__proto__ at the top',
      '{"__proto__":{"polluted":"yes"},"name":"A link","url":"https://example.com"}',
    ],
    [
      '__proto__ nested',
      '{"name":"A link","url":"https://example.com","x":{"__proto__":{"polluted":"yes"}}}',
    ],
    [
      'constructor.prototype',
      '{"constructor":{"prototype":{"polluted":"yes"}},"name":"A link","url":"https://example.com"}',
    ],
    [
      '__proto__ with an escaped name',
      '{"\\u005f_proto__":{"polluted":"yes"},"name":"A link","url":"https://example.com"}',
    ],
  ].map(([name, payload]): Attack => ({
    class: 'prototype pollution',
    name: `a link body with ${name}`,
    as: owner,
    request: postLink(payload),
    status: 400,
    code: 'VALIDATION_ERROR',
  })),
  {
    class: 'prototype pollution',
    name: 'a sign-in body with __proto__',
    request: {
      method: 'POST',
      url: '/api/auth/sessions',
      headers: json,
      payload: `{"type":"email-password","email":"${owner.email}","password":"x","__proto__":{"polluted":"yes"}}`,
    },
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  ...[
    '__proto__[polluted]=yes',
    '__proto__.polluted=yes',
    'constructor[prototype][polluted]=yes',
    '__proto__=yes',
    'constructor=yes',
  ].map((query): Attack => ({
    class: 'prototype pollution',
    name: `the peer search with ${query}`,
    as: owner,
    request: { method: 'GET', url: `${c}/peers?${query}` },
    status: 400,
    code: 'VALIDATION_ERROR',
  })),
];

// Bodies too large, or nested too deep: a fast 4xx, never a 500.
const bodies: Attack[] = [
  {
    class: 'oversized body',
    name: 'a link of 70 KB',
    as: owner,
    request: postLink({ ...okLink, description: 'x'.repeat(70 * 1024) }),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    class: 'oversized body',
    name: 'a sign-in of 1 MB',
    request: {
      method: 'POST',
      url: '/api/auth/sessions',
      headers: json,
      payload: JSON.stringify({
        type: 'email-password',
        email: owner.email,
        password: 'x'.repeat(1 << 20),
      }),
    },
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    class: 'oversized body',
    name: 'a field over its limit in a small body',
    as: owner,
    request: postLink({ ...okLink, name: 'x'.repeat(201) }),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  ...(
    [
      ['10,000 nested arrays', nested(10_000, '[', ']')],
      ['10,000 nested objects', nested(10_000, '{"a":', '}')],
      [
        '10,000 nested arrays inside a field',
        `{"name":"x","url":"https://example.com","description":${nested(10_000, '[', ']')}}`,
      ],
    ] as const
  ).flatMap(([what, payload]): Attack[] => [
    {
      class: 'deeply nested body',
      name: `${what} as a link`,
      as: owner,
      request: postLink(payload),
      status: 400,
      code: 'VALIDATION_ERROR',
    },
    {
      class: 'deeply nested body',
      name: `${what} as a sign-in`,
      request: { method: 'POST', url: '/api/auth/sessions', headers: json, payload },
      status: 400,
      code: 'VALIDATION_ERROR',
    },
  ]),
  {
    class: 'deeply nested body',
    name: '10,000 nested arrays as the items of an order',
    as: owner,
    request: {
      method: 'PUT',
      url: `${c}/collections/${spaces.own.id}/order`,
      headers: json,
      payload: `{"items":${nested(10_000, '[', ']')}}`,
    },
    status: 400,
    code: 'VALIDATION_ERROR',
  },
];

// Hidden schemes in link addresses: never stored.
const ENTITY_URLS = [
  'javascript&colon;alert(1)',
  'jav&#x09;ascript:alert(1)',
  '&#106;avascript:alert(1)',
  'java&Tab;script:alert(1)',
  'javascript:alert(1)//https://example.com',
  'jAvAsCrIpT:alert(1)',
  'javascript\u0000:alert(1)',
  'javascript:\u0000alert(1)',
  '\u0001javascript:alert(1)',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'file:///etc/passwd',
  'file://localhost/etc/passwd',
  'ｊａｖａｓｃｒｉｐｔ:alert(1)',
  'ＪＡＶＡＳＣＲＩＰＴ:alert(1)',
];

/** Whether a stored address could run as anything but a web page or a mail address. */
const safeScheme = (stored: string) => /^(https?|mailto):/.test(stored);

const hiddenSchemes: Attack[] = [
  ...[...HOSTILE_URLS, ...ENTITY_URLS].map((url): Attack => ({
    class: 'hidden-scheme link',
    name: `a link to ${JSON.stringify(url).slice(0, 60)}`,
    as: owner,
    request: postLink({ name: 'A link', url }),
    // Refused; or, where the text has no scheme at all (an entity), taken as an https
    // address — of a host that cannot exist, harmless.
    status: url.includes('&') ? [400, 204] : 400,
    code: 'VALIDATION_ERROR',
    changes: LINK_STORED,
    check: async (response) => {
      if (response.statusCode === 204) expect(safeScheme((await newestLink())!.url)).toBe(true);
    },
  })),
  {
    class: 'hidden-scheme link',
    name: 'an edit of a link to javascript: with a tab',
    as: owner,
    request: {
      method: 'PATCH',
      url: `${c}/links/${linkOf.own.id}`,
      payload: { url: 'java\tscript:alert(1)' },
    },
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'hidden-scheme link',
    name: 'a suggestion of a data: address',
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collections/${spaces.organization.id}/suggestions`,
      payload: { name: 'x', url: 'data:text/html,<script>alert(1)</script>' },
    },
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  ...['javascript:alert(1)', 'JAVA\nSCRIPT:alert(1)', 'data:text/html,x'].map((url): Attack => ({
    class: 'hidden-scheme link',
    name: `the organization's feedback address ${JSON.stringify(url)}`,
    as: orgAdmin,
    request: { method: 'PATCH', url: '/api/admin/organization', payload: { feedbackUrl: url } },
    status: 400,
    code: 'VALIDATION_ERROR',
  })),
];

// Addresses a server-side fetcher must never reach. There is no fetcher: the server takes
// these as link addresses (they are http), stores them as given, and never connects.
const SSRF_URLS = [
  `${listener.url}/latest/meta-data`,
  'http://127.0.0.1',
  'http://169.254.169.254/latest/meta-data',
  'http://[::1]',
  'http://0x7f000001',
  'http://2130706433/',
  'http://localhost:22/',
];
const ssrf: Attack[] = [
  ...SSRF_URLS.map((url): Attack => ({
    class: 'server-side request forgery',
    name: `a link to ${url}`,
    as: owner,
    request: postLink({ name: 'Internal', url }),
    status: 204,
    changes: LINK_STORED,
    check: async () => {
      const stored = (await newestLink())!;
      // Stored as given (the same address once parsed); the browser is the only client.
      expect(new URL(stored.url).href).toBe(new URL(url).href);
      const menu = await app.inject({ method: 'GET', url: `${c}/menu`, headers: owner.headers });
      expect(menu.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(listener.connections()).toBe(0);
    },
  })),
  {
    class: 'server-side request forgery',
    name: 'a link to file:///etc/passwd',
    as: owner,
    request: postLink({ name: 'Passwords', url: 'file:///etc/passwd' }),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'server-side request forgery',
    name: 'a suggestion of the listener',
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collections/${spaces.organization.id}/suggestions`,
      payload: { name: 'Internal', url: `${listener.url}/suggested` },
    },
    status: 204,
    changes: ['link_suggestions', 'menu_scopes', 'audit_log'],
    check: () => expect(listener.connections()).toBe(0),
  },
];

// Encodings and Unicode tricks.
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))),
  );
const encodings: Attack[] = [
  {
    class: 'encoding',
    name: 'an overlong UTF-8 slash in a link address',
    as: owner,
    request: postLink(
      bytes('{"name":"x","url":"https://example.com/..', [0xc0, 0xaf], '..', [0xc0, 0xaf], 'etc"}'),
    ),
    status: 400,
    code: 'VALIDATION_ERROR',
    check: (response) => expect(response.json().message).toMatch(/not valid UTF-8/),
  },
  {
    class: 'encoding',
    name: 'invalid UTF-8 bytes in a link name',
    as: owner,
    request: postLink(bytes('{"name":"a', [0xff, 0xfe, 0x80], 'b","url":"https://example.com"}')),
    status: 400,
    code: 'VALIDATION_ERROR',
    check: (response) => expect(response.json().message).toMatch(/not valid UTF-8/),
  },
  ...(
    [
      ['a UTF-8-encoded surrogate', [0xed, 0xa0, 0x80]],
      ['a truncated sequence', [0xe2, 0x82]],
      ['a lone continuation byte', [0x80]],
    ] as const
  ).map(([what, bad]): Attack => ({
    class: 'encoding',
    name: `${what} in a sign-in e-mail`,
    request: {
      method: 'POST',
      url: '/api/auth/sessions',
      headers: json,
      payload: bytes('{"type":"email-password","email":"a', [...bad], '@x.test","password":"x"}'),
    },
    status: 400,
    code: 'VALIDATION_ERROR',
    check: (response) => expect(response.json().message).toMatch(/not valid UTF-8/),
  })),
  {
    class: 'encoding',
    name: 'a JSON body that is UTF-16 with a byte-order mark',
    as: owner,
    request: postLink(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(okLink), 'utf16le')]),
    ),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'encoding',
    name: 'a JSON body in UTF-16, declared as such',
    as: owner,
    request: postLink(Buffer.from(JSON.stringify(okLink), 'utf16le'), {
      'content-type': 'application/json; charset=utf-16',
    }),
    status: 415,
    code: 'VALIDATION_ERROR',
  },
  ...['%00', 'abc%00def', '%2e%2e', '%252e%252e%252f', '..%2f..%2fadmin'].map(
    (segment): Attack => ({
      class: 'encoding',
      name: `a link id of ${segment}`,
      as: owner,
      request: { method: 'PATCH', url: `${c}/links/${segment}`, payload: { name: 'x' } },
      status: [400, 404],
    }),
  ),
  {
    class: 'encoding',
    name: 'a NUL character in the peer search',
    as: owner,
    request: { method: 'GET', url: `${c}/peers?query=%00` },
    status: 400,
    code: 'VALIDATION_ERROR',
    check: (response) =>
      expect(response.json()).toMatchObject({
        message: expect.stringMatching(/^The search cannot contain .*U\+0000/),
        field: 'query',
      }),
  },
  {
    class: 'encoding',
    name: 'duplicate keys, the last one hostile',
    as: owner,
    request: postLink('{"name":"x","url":"https://example.com","url":"javascript:alert(1)"}'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'encoding',
    name: 'duplicate keys, the last one a foreign owner',
    as: owner,
    request: postLink(
      `{"name":"x","url":"https://example.com","createdBy":null,"createdBy":"${colleague.id}"}`,
    ),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'encoding',
    name: 'a form body declared as JSON',
    as: owner,
    request: postLink('name=x&url=https%3A%2F%2Fexample.com'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'encoding',
    name: 'a JSON body declared as XML',
    as: owner,
    request: postLink(JSON.stringify(okLink), { 'content-type': 'application/xml' }),
    status: 415,
    code: 'VALIDATION_ERROR',
  },
];

// Path traversal in the paths of the web app's files.
const traversal: Attack[] = [
  '/assets/..%2f..%2fpackage.json',
  '/assets/..%2F..%2Fsecret.txt',
  '/assets/%2e%2e/%2e%2e/secret.txt',
  '/assets/..%5c..%5csecret.txt',
  '/assets/..\\..\\secret.txt',
  '/assets/..%255c..%255csecret.txt',
  '/assets/..%252f..%252fsecret.txt',
  '/..%2fsecret.txt',
  '/%2e%2e/secret.txt',
  '/assets/....//....//secret.txt',
  '/assets/index-abc.js%00.html',
  '/%2e%2e%2f%2e%2e%2fsecret.txt',
].map((url): Attack => ({
  class: 'path traversal',
  name: `GET ${url}`,
  request: { method: 'GET', url },
  status: [400, 403, 404],
}));

// Open redirects: the address single sign-on returns to stays on this site.
// Each "return to" address, and the path it must be stored as.
const RETURN_TOS: [string, string | null][] = [
  ['https://evil.example', '/'],
  ['//evil.example', '/'],
  ['///evil.example', '/'],
  ['/\\evil.example', '/'],
  ['\\\\evil.example', '/'],
  ['/%2F%2Fevil.example', '/'],
  ['/%5Cevil.example', '/'],
  ['%2F%2Fevil.example', '/'],
  ['javascript:alert(1)', '/'],
  // A tab or a line break is refused before anything (400): `null`.
  ['/\t/evil.example', null],
  [' //evil.example', '/'],
  ['https:evil.example', '/'],
  ['/x\r\nSet-Cookie: evil=1', null],
  // Encoded line breaks stay encoded: a path of this site, never a header.
  ['/x%0d%0aSet-Cookie:%20evil=1', '/x%0d%0aSet-Cookie:%20evil=1'],
];
let ssoCaller = 0;
const openRedirects: Attack[] = RETURN_TOS.map(([returnTo, stored]): Attack => ({
  class: 'open redirect',
  name: `single sign-on returning to ${JSON.stringify(returnTo)}`,
  request: {
    method: 'GET',
    url: `/api/auth/sso/acme/start?returnTo=${encodeURIComponent(returnTo)}`,
    headers: { host: 'signpost.test' },
    // Each from its own address: the starts per address are limited.
    remoteAddress: `10.9.${Math.floor((ssoCaller += 1) / 250)}.${ssoCaller % 250}`,
  },
  status: stored === null ? 400 : 302,
  ...(stored === null ? { code: 'VALIDATION_ERROR' } : {}),
  changes: ['sso_attempts', 'login_throttle'],
  check: async (response) => {
    if (stored === null) return;
    expect(String(response.headers.location)).toMatch(new RegExp(`^${idp.issuer}/`));
    const state = new URL(String(response.headers.location)).searchParams.get('state')!;
    const [attempt] = await db.select().from(ssoAttempts).where(eq(ssoAttempts.state, state));
    expect(attempt?.returnTo).toBe(stored);
  },
}));

// Login CSRF: a form a foreign page could post is not JSON, and is refused before anything.
// A foreign page may send any of these without a preflight; text/plain too (it is no form).
const FORM_TYPES = [
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
];
const signInForm = `email=${encodeURIComponent(owner.email)}&password=x&type=email-password`;
const loginCsrf: Attack[] = FORM_TYPES.flatMap((type): Attack[] => [
  {
    class: 'login CSRF',
    name: `a sign-in posted as ${type.split(';')[0]}`,
    request: {
      method: 'POST',
      url: '/api/auth/sessions',
      headers: { 'content-type': type },
      payload: signInForm,
    },
    status: 415,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'login CSRF',
    name: `an invitation accepted as ${type.split(';')[0]}`,
    request: {
      method: 'POST',
      url: '/api/invitations/accept',
      headers: { 'content-type': type },
      payload: 'token=x&password=y',
    },
    status: 415,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'login CSRF',
    name: `a setup posted as ${type.split(';')[0]}`,
    request: {
      method: 'POST',
      url: '/api/setup',
      headers: { 'content-type': type },
      payload: 'code=x',
    },
    status: 415,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'login CSRF',
    name: `a link posted as ${type.split(';')[0]}`,
    as: owner,
    request: postLink(JSON.stringify(okLink), { 'content-type': type }),
    status: 415,
    code: 'VALIDATION_ERROR',
  },
  {
    class: 'login CSRF',
    name: `a sign-out posted as ${type.split(';')[0]}`,
    as: owner,
    request: {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': type },
      payload: 'x=1',
    },
    status: 415,
    code: 'VALIDATION_ERROR',
  },
]);

// CORS: a foreign page never gets to read an answer.
const noCors = (response: LightMyRequestResponse) => {
  expect(response.headers['access-control-allow-origin']).toBeUndefined();
  expect(response.headers['access-control-allow-credentials']).toBeUndefined();
};
const EVIL = { origin: 'https://evil.example' };
const cors: Attack[] = [
  {
    class: 'CORS',
    name: 'the menu read from a foreign origin',
    as: owner,
    request: { method: 'GET', url: `${c}/menu`, headers: EVIL },
    status: 200,
    check: noCors,
  },
  {
    class: 'CORS',
    name: 'the sign-in methods read from a foreign origin',
    request: { method: 'GET', url: '/api/auth/methods', headers: EVIL },
    status: 200,
    check: noCors,
  },
  {
    class: 'CORS',
    name: 'a preflight for deleting a link',
    request: {
      method: 'OPTIONS',
      url: `${c}/links/${linkOf.own.id}`,
      headers: {
        ...EVIL,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'authorization',
      },
    },
    status: [401, 404],
    check: noCors,
  },
  {
    class: 'CORS',
    name: 'a preflight for signing in',
    request: {
      method: 'OPTIONS',
      url: '/api/auth/sessions',
      headers: {
        ...EVIL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    },
    status: 404,
    check: noCors,
  },
  {
    class: 'CORS',
    name: 'the origin "null"',
    as: owner,
    request: { method: 'GET', url: `${c}/menu`, headers: { origin: 'null' } },
    status: 200,
    check: noCors,
  },
];

// Header injection: line breaks in anything the server puts in a header.
const headerInjection: Attack[] = [
  {
    class: 'header injection',
    name: 'a line break in an unknown path',
    request: { method: 'GET', url: '/api/x%0d%0aSet-Cookie:%20evil=1' },
    // 400 from the check of the request's text, before the router would say 404.
    status: [400, 404],
  },
  {
    class: 'header injection',
    name: 'a line break in the provider of a single sign-on start',
    request: {
      method: 'GET',
      url: '/api/auth/sso/x%0d%0aSet-Cookie:%20evil=1/start',
      remoteAddress: '10.8.0.1',
    },
    status: [302, 400, 404],
    changes: ['login_throttle'],
    check: (response) => {
      if (response.statusCode === 302)
        expect(String(response.headers.location)).toMatch(/^\/#sso-error\?/);
    },
  },
  {
    class: 'header injection',
    name: 'a line break in the error of a single sign-on callback',
    request: {
      method: 'GET',
      url: '/api/auth/sso/acme/callback?error=x%0d%0aSet-Cookie:%20evil=1&state=s',
      remoteAddress: '10.8.0.2',
    },
    status: [302, 400],
    changes: ['login_throttle'],
    check: (response) => {
      if (response.statusCode === 302)
        expect(String(response.headers.location)).toMatch(/^\/#sso-error\?/);
    },
  },
];

// Control characters (C0, DEL, C1) and lone surrogates in text fields: 400 naming the field
// (its path here; the answer says its label and names its property in `field`).
const CONTROLS = ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009b', '\ud800', '\udfff'];
const TEXT_FIELDS: [string, (text: string) => InjectOptions, string, Person | undefined][] = [
  ['a link name', (t) => postLink({ ...okLink, name: `a${t}b` }), 'body.name', owner],
  [
    'a link description',
    (t) => postLink({ ...okLink, description: `a${t}b` }),
    'body.description',
    owner,
  ],
  [
    'a collection name',
    (t) => ({
      method: 'POST',
      url: `${c}/collections`,
      payload: { name: `a${t}b`, parentId: spaces.own.id },
    }),
    'body.name',
    owner,
  ],
  [
    'a suggestion name',
    (t) => ({
      method: 'POST',
      url: `${c}/collections/${spaces.organization.id}/suggestions`,
      payload: { ...okLink, name: `a${t}b` },
    }),
    'body.name',
    owner,
  ],
  [
    'an access token name',
    (t) => ({ method: 'POST', url: '/api/auth/tokens', payload: { name: `a${t}b` } }),
    'body.name',
    owner,
  ],
  [
    'the e-mail at sign-in',
    (t) => ({
      method: 'POST',
      url: '/api/auth/sessions',
      payload: { type: 'email-password', email: `${owner.email}${t}`, password: PASSWORD },
    }),
    'body.email',
    undefined,
  ],
];
const controlCharacters: Attack[] = TEXT_FIELDS.flatMap(([what, request, field, as]) =>
  CONTROLS.map((character): Attack => {
    const code = character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return {
      class: 'control character',
      name: `U+${code} in ${what}`,
      as,
      request: request(character) as Attack['request'],
      status: 400,
      code: 'VALIDATION_ERROR',
      // In words, naming the field by its label and in `field` (decision 0078).
      check: (response) =>
        expect(response.json()).toMatchObject({
          message: expect.stringMatching(new RegExp(`^The .* cannot contain .*U\\+${code}`)),
          field: field.split('.')[1],
        }),
    };
  }),
);

// Names that show nothing: only spaces, zero-width or bidirectional characters.
const BLANK_NAMES = [
  '\u200b\u200b',
  '\u202e',
  '\u2066\u2069',
  '\u00a0\u3000',
  '\ufeff',
  '\u200d\u034f',
];
const invisibleNames: Attack[] = BLANK_NAMES.flatMap((name): Attack[] => {
  const label = [...name].map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase()}`);
  const blank = (field: string) => (response: LightMyRequestResponse) =>
    expect(response.json()).toMatchObject({
      message: expect.stringMatching(/^The .* cannot be blank/),
      field: field.split('.')[1],
    });
  return [
    {
      class: 'invisible name',
      name: `a link named ${label.join(' ')}`,
      as: owner,
      request: postLink({ ...okLink, name }),
      status: 400,
      code: 'VALIDATION_ERROR',
      check: blank('body\\.name'),
    },
    {
      class: 'invisible name',
      name: `a collection named ${label.join(' ')}`,
      as: owner,
      request: {
        method: 'POST',
        url: `${c}/collections`,
        payload: { name, parentId: spaces.own.id },
      },
      status: 400,
      code: 'VALIDATION_ERROR',
      check: blank('body\\.name'),
    },
    {
      class: 'invisible name',
      name: `an access token named ${label.join(' ')}`,
      as: owner,
      request: { method: 'POST', url: '/api/auth/tokens', payload: { name } },
      status: 400,
      code: 'VALIDATION_ERROR',
      check: blank('body\\.name'),
    },
  ];
});

// Bidirectional controls (decision 0081): taken out where text enters, so that no program
// reading what is stored — an export, a mail, an API client — shows `invoice<RLO>gnp.exe` as
// "invoiceexe.png". Taken, without them.
const bidiControls: Attack[] = [
  {
    class: 'bidirectional override',
    name: 'a link named invoice U+202E gnp.exe',
    as: owner,
    request: postLink({ ...okLink, name: 'invoice\u202egnp.exe' }),
    status: 204,
    changes: LINK_STORED,
    check: async () => expect((await newestLink())!.name).toBe('invoicegnp.exe'),
  },
  {
    class: 'bidirectional override',
    name: 'a link described with an isolate and an embedding, paired',
    as: owner,
    request: postLink({
      ...okLink,
      name: 'Report',
      description: 'see \u2067exe.png\u2069 and \u202bfdp.exe\u202c',
    }),
    status: 204,
    changes: LINK_STORED,
    check: async () => expect((await newestLink())!.description).toBe('see exe.png and fdp.exe'),
  },
  {
    class: 'bidirectional override',
    name: 'a suggestion named with U+202D and U+2066',
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collections/${spaces.organization.id}/suggestions`,
      payload: { name: 'Tool\u202d\u2066x', url: 'https://example.com/tool' },
    },
    status: 204,
    changes: ['link_suggestions', 'menu_scopes', 'audit_log'],
    check: async () => {
      const rows = await selectRows<{ name: string }>(
        db,
        sql`SELECT name FROM link_suggestions WHERE url = 'https://example.com/tool'`,
      );
      expect(rows.map((row) => row.name)).toEqual(['Toolx']);
    },
  },
];

// Addresses other clients could read differently: stored in the WHATWG-parsed form (one
// meaning for every reader), a user name before the host refused.
const PARSED_URLS: [string, string][] = [
  ['https:evil.example', 'https://evil.example/'],
  ['https:///evil.example/a', 'https://evil.example/a'],
  ['https:\\\\evil.example\\b', 'https://evil.example/b'],
  ['https:/\\evil.example', 'https://evil.example/'],
  ['HTTPS://Evil.EXAMPLE:443/a/../b', 'https://evil.example/b'],
  // An empty user name is no user name: dropped by the parser.
  ['https://@evil.example', 'https://evil.example/'],
  // A homograph of apple.com in Cyrillic letters: stored as punycode.
  ['https://аррӏе.com/login', 'https://xn--80ak6aa92e.com/login'],
];
const urlTricks: Attack[] = [
  ...PARSED_URLS.map(([url, stored]): Attack => ({
    class: 'address trick',
    name: `a link to ${JSON.stringify(url)}`,
    as: owner,
    request: postLink({ name: 'Trick', url }),
    status: 204,
    changes: LINK_STORED,
    check: async () => expect((await newestLink())!.url).toBe(stored),
  })),
  ...[
    'https://good.example@evil.example/',
    'https://user:pass@evil.example/',
    'https://good.example%40@evil.example/',
  ].map((url): Attack => ({
    class: 'address trick',
    name: `a link to ${url}`,
    as: owner,
    request: postLink({ name: 'Trick', url }),
    status: 400,
    code: 'VALIDATION_ERROR',
    check: (response) => expect(response.json().message).toMatch(/^The link's address .*user/),
  })),
  {
    class: 'address trick',
    name: 'a suggestion of a homograph host',
    as: owner,
    request: {
      method: 'POST',
      url: `${c}/collections/${spaces.organization.id}/suggestions`,
      payload: { name: 'Look-alike', url: 'https://аррӏе.com' },
    },
    status: 204,
    changes: ['link_suggestions', 'menu_scopes', 'audit_log'],
    check: async () => {
      const rows = await selectRows<{ url: string }>(
        db,
        sql`SELECT url FROM link_suggestions WHERE name = 'Look-alike'`,
      );
      expect(rows.map((row) => row.url)).toEqual(['https://xn--80ak6aa92e.com/']);
    },
  },
];

// The Authorization header: the scheme in any case, anything malformed refused.
const ownerToken = owner.headers.authorization.slice(7);
const authorization: Attack[] = [
  ...['bearer', 'BEARER', 'bEaReR'].map((scheme): Attack => ({
    class: 'authorization header',
    name: `the scheme written ${scheme}`,
    request: {
      method: 'GET',
      url: `${c}/menu`,
      headers: { authorization: `${scheme} ${ownerToken}` },
    },
    status: 200,
  })),
  ...[
    'Bearer',
    'Bearer ',
    `Basic ${ownerToken}`,
    `Token ${ownerToken}`,
    `Bearer ${ownerToken} extra`,
    `Bearer ${ownerToken},Bearer ${ownerToken}`,
    `Bearer\t${ownerToken}`,
    `${ownerToken}`,
    `Bearer "${ownerToken}"`,
  ].map((header): Attack => ({
    class: 'authorization header',
    name: `the header ${JSON.stringify(header.replace(ownerToken, '<token>'))}`,
    request: { method: 'GET', url: `${c}/menu`, headers: { authorization: header } },
    status: 401,
    code: 'UNAUTHORIZED',
  })),
];

// The sign-in address limit, with a new X-Forwarded-For every time (reached above).
const addressLimit: Attack[] = [
  {
    class: 'address limit',
    name: 'a sixth failed sign-in from one client, with a new X-Forwarded-For (no proxy trusted)',
    request: {
      method: 'POST',
      url: '/api/auth/sessions',
      remoteAddress: '198.51.100.77',
      headers: { 'x-forwarded-for': '192.0.2.200' },
      payload: { type: 'email-password', email: 'nobody99@example.test', password: 'guess' },
    },
    status: 429,
    code: 'RATE_LIMITED',
  },
  {
    class: 'address limit',
    name: 'a fourth failed sign-in behind one trusted hop, with a new address written in front',
    on: proxied,
    request: {
      method: 'POST',
      url: '/api/auth/sessions',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '192.0.2.201, 198.18.9.9, 192.0.2.7' },
      payload: { type: 'email-password', email: 'nobody99@example.test', password: 'guess' },
    },
    status: 429,
    code: 'RATE_LIMITED',
  },
];

// Answers that carry a secret are never stored by a cache.
const noStore = (response: LightMyRequestResponse) =>
  expect(response.headers['cache-control']).toBe('no-store');
const caching: Attack[] = [
  {
    class: 'cached secret',
    name: 'a sign-in (its session token)',
    request: {
      method: 'POST',
      url: '/api/auth/sessions',
      remoteAddress: '10.7.0.1',
      payload: { type: 'email-password', email: colleague.email, password: PASSWORD },
    },
    status: 201,
    changes: ['sessions', 'audit_log', 'login_throttle', 'users', 'people_changes'],
    check: noStore,
  },
  {
    class: 'cached secret',
    name: 'an access token made',
    as: owner,
    request: { method: 'POST', url: '/api/auth/tokens', payload: { name: 'script' } },
    status: 201,
    changes: ['access_tokens', 'audit_log'],
    check: noStore,
  },
  {
    class: 'cached secret',
    name: 'a second-factor setup (its secret)',
    as: owner,
    request: { method: 'POST', url: '/api/auth/second-factor/setup' },
    status: 200,
    changes: ['second_factors', 'audit_log', 'people_changes'],
    check: noStore,
  },
  {
    class: 'cached secret',
    name: 'the second factor turned on (its recovery codes)',
    as: enabler,
    request: {
      method: 'POST',
      url: '/api/auth/second-factor/enable',
      // Computed when sent: the code of the step of that moment.
      get payload() {
        return { code: codeAt(enablerSecret, stepNow()) };
      },
    },
    status: 200,
    changes: [
      'second_factors',
      'recovery_codes',
      'sessions',
      'audit_log',
      'access_tokens',
      'login_throttle',
      'people_changes',
    ],
    check: (response) => {
      noStore(response);
      expect(response.json().recoveryCodes.length).toBeGreaterThan(0);
    },
  },
];

// The API documentation and framing.
const STRICT_CSP = "frame-ancestors 'none'";
const docsAndFraming: Attack[] = [
  ...[
    '/api/docs/json',
    '/api/docs/yaml',
    '/api/docs/json/',
    '/api/docs/json?x=1',
    '/api/docs/%6Ason',
  ].map((url): Attack => ({
    class: 'API documentation',
    name: `GET ${url} without a session`,
    request: { method: 'GET', url },
    status: 401,
    code: 'UNAUTHORIZED',
  })),
  {
    class: 'API documentation',
    name: 'the viewer page keeps the strict policy',
    request: { method: 'GET', url: '/api/docs' },
    status: [200, 302],
    check: (response) => {
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain(STRICT_CSP);
      expect(policy).toMatch(/script-src 'self'(;|$)/);
      expect(policy).not.toContain('unsafe-eval');
    },
  },
  ...['/api/auth/methods', '/', '/api/docs'].map((url): Attack => ({
    class: 'framing',
    name: `GET ${url} may not be framed`,
    request: { method: 'GET', url },
    status: [200, 302],
    check: (response) => {
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(String(response.headers['content-security-policy'])).toContain(STRICT_CSP);
    },
  })),
];

// Sensitive changes of a session signed in longer ago than the re-authentication window.
const reauthentication: Attack[] = [
  {
    class: 're-authentication',
    name: 'an access token made by an old session',
    as: staleOne,
    request: { method: 'POST', url: '/api/auth/tokens', payload: { name: 'script' } },
    status: 403,
    code: 'REAUTHENTICATION_REQUIRED',
  },
  {
    class: 're-authentication',
    name: 'the second factor set up by an old session',
    as: staleOne,
    request: { method: 'POST', url: '/api/auth/second-factor/setup' },
    status: 403,
    code: 'REAUTHENTICATION_REQUIRED',
  },
  {
    class: 're-authentication',
    name: 'the second factor turned on by an old session',
    as: staleOne,
    request: {
      method: 'POST',
      url: '/api/auth/second-factor/enable',
      payload: { code: '123456' },
    },
    status: 403,
    code: 'REAUTHENTICATION_REQUIRED',
  },
  {
    class: 're-authentication',
    name: 'the second factor turned off by an old session',
    as: staleTwo,
    request: {
      method: 'POST',
      url: '/api/auth/second-factor/disable',
      payload: { password: PASSWORD },
    },
    status: 403,
    code: 'REAUTHENTICATION_REQUIRED',
  },
];

// The ticket of a single sign-on waiting for the second factor.
const ssoTickets: Attack[] = [
  ['a used ticket, replayed', usedTicket],
  ['a ticket from another browser', { ...foreignTicket, browser: 'x'.repeat(43) }],
  ['a ticket without its cookie', { ...foreignTicket, browser: null }],
  ['an expired ticket', expiredTicket],
  ['a made-up ticket', { ticket: 'y'.repeat(43), browser: foreignTicket.browser }],
].map(([what, ticket]): Attack => ({
  class: 'second-factor ticket',
  name: what as string,
  request: {
    ...finishSso(ticket as { ticket: string; browser: string | null }, {
      recoveryCode: factorOfSso.recoveryCodes[1]!,
    }),
  },
  status: 401,
  code: 'SIGN_IN_EXPIRED',
}));

// ---------------------------------------------------------------------------------------
// Every route that needs a session, from the app's own route tree, against every kind of
// dead credential: 401, and nothing else happens.

/** Routes anyone may call, each for a reason; every other route needs a live session. */
const PUBLIC_ROUTES: Record<string, string> = {
  'GET /api/auth/methods': 'the sign-in screen lists the ways to sign in',
  'POST /api/auth/sessions': 'signing in',
  'GET /api/auth/sso/:provider/start': 'single sign-on starts signed out',
  'GET /api/auth/sso/:provider/callback': 'single sign-on ends signed out',
  'GET /api/setup': 'whether the first run is done',
  'POST /api/setup': 'the first run, guarded by its one-time code',
  'POST /api/invitations/lookup': 'an invitation, guarded by its secret',
  'POST /api/invitations/accept': 'an invitation, guarded by its secret',
  'POST /api/auth/sso/second-factor':
    'the code after a single sign-on, guarded by its ticket and the cookie of the browser',
  'GET /api/icons/:id':
    "a link's icon: an <img> sends no session, and its address is a digest nobody can guess (decision 0068)",
};
// The API viewer's page and files are the stock Swagger UI and reveal nothing of this server
// (decision 0051); the document itself (`/api/docs/json`, `/yaml`) needs a session.
const DOCS_DOCUMENT = ['/api/docs/json', '/api/docs/yaml'];
const isDocs = (url: string) => url.startsWith('/api/docs') && !DOCS_DOCUMENT.includes(url);

// Each path parameter filled with an id of something real, so that a 401 is about the
// credential and not about an unknown id.
const PARAMS: Record<string, string> = {
  ':id': spaces.own.id,
  ':shareId': spaces.share.id,
  ':memberId': member.id,
  ':userId': member.id,
  ':provider': 'acme',
};
const fill = (url: string) => url.replace(/:\w+/g, (name) => PARAMS[name] ?? owner.id);

const sessionRoutes = routesOf(app).filter(
  (route) =>
    route.url.startsWith('/api/') &&
    !isDocs(route.url) &&
    !(`${route.method} ${route.url}` in PUBLIC_ROUTES),
);

const anonymous: Attack[] = Object.entries(DEAD).flatMap(([who, headers]) =>
  sessionRoutes.map((route): Attack => ({
    class: 'no live session',
    name: `${route.method} ${route.url} with ${who}`,
    request: {
      method: route.method as InjectOptions['method'],
      url: fill(route.url),
      headers,
      ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
    },
    status: 401,
    // Its holder is told the token expired (decision 0054); every other refusal is the same.
    code: who === 'an expired access token' ? 'ACCESS_TOKEN_EXPIRED' : 'UNAUTHORIZED',
  })),
);

const ATTACKS: Attack[] = [
  ...objectLikeness,
  ...typeConfusion,
  ...prototypePollution,
  ...bodies,
  ...hiddenSchemes,
  ...ssrf,
  ...encodings,
  ...traversal,
  ...openRedirects,
  ...loginCsrf,
  ...cors,
  ...headerInjection,
  ...controlCharacters,
  ...invisibleNames,
  ...bidiControls,
  ...urlTricks,
  ...authorization,
  ...addressLimit,
  ...caching,
  ...docsAndFraming,
  ...reauthentication,
  ...ssoTickets,
  ...anonymous,
];

// ---------------------------------------------------------------------------------------
// The checks every row gets.

const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);

// The digest after the last row that passed, which is the digest before the next row (the
// rows run in order; a failed row leaves none, and the next row computes its own).
let lastDigest: Record<string, string> | null = null;

describe('attack table', () => {
  it('derives the routes that need a session from the app, and covers the known ones', () => {
    const listed = sessionRoutes.map((route) => `${route.method} ${route.url}`);
    for (const route of [
      'GET /api/consumer/menu',
      'POST /api/consumer/collections/:id/links',
      'DELETE /api/consumer/collection-shares/:shareId/members/:memberId',
      'GET /api/admin/people',
      'GET /api/admin/audit-log/export',
      'POST /api/auth/tokens',
      'POST /api/auth/second-factor/enable',
      'DELETE /api/auth/sessions/current',
      'GET /api/docs/json',
      'GET /api/docs/yaml',
    ]) {
      expect(listed).toContain(route);
    }
    // Every public route is one the app has: the list cannot go stale unnoticed.
    const all = routesOf(app).map((route) => `${route.method} ${route.url}`);
    for (const route of Object.keys(PUBLIC_ROUTES)) expect(all).toContain(route);
  });

  it.each(ATTACKS.map((attack) => ({ ...attack, label: `${attack.class}: ${attack.name}` })))(
    '$label',
    async (attack) => {
      const target = attack.on ?? { app, db };
      const before = attack.on
        ? await databaseDigest(target.db)
        : (lastDigest ?? (await databaseDigest(db)));
      lastDigest = null;
      logs.length = 0;
      proxiedLogs.length = 0;
      const started = performance.now();
      const response = await target.app.inject({
        ...attack.request,
        headers: { ...attack.as?.headers, ...attack.request.headers },
      } as InjectOptions);
      const took = performance.now() - started;
      const statuses = [attack.status].flat();

      // (a) the answer, and its error code
      expect(statuses, response.body.slice(0, 500)).toContain(response.statusCode);
      const isJson = String(response.headers['content-type']).startsWith('application/json');
      if (response.statusCode >= 400 && isJson) {
        const body = response.json();
        expect(body).toMatchObject({ message: expect.any(String), msg: body.message });
        if (attack.code) expect(body.code).toBe(attack.code);
      }
      if (attack.code && response.statusCode >= 400) expect(isJson).toBe(true);
      expect(response.statusCode).toBeLessThan(500);
      expect(took, 'answered fast').toBeLessThan(2_000);
      await attack.check?.(response);

      // (b) nothing stored or changed, beyond what a taken request may change
      const after = await databaseDigest(target.db);
      const allowed = response.statusCode < 400 ? (attack.changes ?? []) : [];
      expect(changedTables(before, after).filter((table) => !allowed.includes(table))).toEqual([]);

      // (c) nothing logged at error level
      expect([...logs, ...proxiedLogs].filter((line) => line.level >= ERROR_LEVEL)).toEqual([]);

      // (d) nothing leaked
      for (const pattern of LEAK_PATTERNS) expect(response.body).not.toMatch(pattern);
      if (response.statusCode >= 300) {
        for (const secret of SECRETS) expect(response.body).not.toContain(secret);
      }
      for (const [name, value] of Object.entries(response.headers)) {
        expect(String(value), name).not.toMatch(/[\r\n]/);
        expect(String(value), name).not.toContain('evil=1');
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.keys(Object.prototype)).toEqual([]);
      if (!attack.on) lastDigest = after;
    },
  );

  it('never connected to an address given as a link', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listener.connections()).toBe(0);
  });
});
