import { describe, expect, it, vi } from 'vitest';
import { failureMessage, readable } from './messages';
import { addLink, getMenu, PortalError, suggestLink, type Session } from './portal-client';
import { makeMenu } from './test/menu-fixture';

const SESSION: Session = { origin: 'https://links.acme.example', token: 'spat_abc' };
const LINK = { name: 'Handbook', url: 'https://handbook.acme.example/', description: '' };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
const error = (status: number, code: string, message: string) =>
  json(status, { statusCode: status, error: 'Error', code, message, msg: message });

/** The failure a call meets when the portal answers `response`. */
async function failureOf(response: Response | Error) {
  const fetchImpl = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  try {
    await addLink(SESSION, 'reading', LINK, fetchImpl);
  } catch (caught) {
    return caught;
  }
  throw new Error('the call did not fail');
}

describe('calls to the portal', () => {
  it('reads the menu with the bearer token and no cookie', async () => {
    const fetchImpl = vi.fn(async () => json(200, makeMenu()));
    const menu = await getMenu(SESSION, fetchImpl);
    expect(menu.profile.name).toBe('Ada Lovelace');
    expect(fetchImpl).toHaveBeenCalledWith(
      'https://links.acme.example/api/consumer/menu',
      expect.objectContaining({
        method: 'GET',
        credentials: 'omit',
        headers: expect.objectContaining({ Authorization: 'Bearer spat_abc' }),
      }),
    );
  });

  it('reads every name without bidirectional controls, as the web app does', async () => {
    const menu = makeMenu();
    menu.profile.name = 'Ada\u202e Lovelace';
    // JSON.stringify writes the override as the character itself, as the server does.
    const answer = JSON.stringify(menu);
    const fetchImpl = vi.fn(
      async () =>
        new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    const read = await getMenu(SESSION, fetchImpl);
    expect(read.profile.name).toBe('Ada Lovelace');
    expect(JSON.stringify(read)).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('adds a link to a collection, and suggests one, on their routes', async () => {
    const fetchImpl = vi.fn(
      async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(null, { status: 204 }),
    );
    await addLink(SESSION, 'reading', LINK, fetchImpl);
    await suggestLink(SESSION, 'code', LINK, fetchImpl);
    expect(fetchImpl.mock.calls.map(([url, init]) => [url, init?.method, init?.body])).toEqual([
      [
        'https://links.acme.example/api/consumer/collections/reading/links',
        'POST',
        JSON.stringify(LINK),
      ],
      [
        'https://links.acme.example/api/consumer/collections/code/suggestions',
        'POST',
        JSON.stringify(LINK),
      ],
    ]);
  });

  it.each([
    [error(401, 'UNAUTHORIZED', 'This access token is not valid.'), 'unauthorized'],
    [error(401, 'ACCESS_TOKEN_EXPIRED', 'This access token has expired.'), 'expired'],
    [
      error(400, 'VALIDATION_ERROR', 'body.url must be an http, https or mailto address'),
      'refused',
    ],
    [error(403, 'FORBIDDEN', 'Suggestions come from the members of the team.'), 'refused'],
    [error(409, 'CONFLICT', 'Add the link instead.'), 'refused'],
    [error(429, 'RATE_LIMITED', 'Too many requests; try again in a minute.'), 'refused'],
    [error(404, 'NOT_FOUND', 'Collection not found'), 'not-found'],
    [error(503, 'DATABASE_UNAVAILABLE', 'The database is not reachable right now.'), 'unavailable'],
    [new Response('<html>Not here</html>', { status: 404 }), 'not-a-portal'],
    [json(500, { oops: true }), 'not-a-portal'],
    [new TypeError('Failed to fetch'), 'network'],
  ])('tells %#: a failed call as “%s”', async (response, kind) => {
    const failure = await failureOf(response);
    expect(failure).toBeInstanceOf(PortalError);
    expect((failure as PortalError).kind).toBe(kind);
  });

  it('refuses a menu that is not the portal’s', async () => {
    await expect(getMenu(SESSION, async () => json(200, { hello: 'world' }))).rejects.toMatchObject(
      {
        kind: 'not-a-portal',
      },
    );
    const page = new Response('<html>Welcome</html>', {
      status: 200,
      headers: { 'content-type': 'text/html' },
    });
    await expect(getMenu(SESSION, async () => page)).rejects.toMatchObject({
      kind: 'not-a-portal',
    });
  });
});

describe('what the popup says about a failure', () => {
  const origin = SESSION.origin;

  it('says a pasted token is not valid, and a token that worked before no longer works', () => {
    const refused = new PortalError('unauthorized');
    expect(failureMessage(refused, origin, true)).toEqual({
      text: 'This access token is not valid. Check that you pasted all of it, or ask for a new one.',
      field: null,
      signIn: true,
    });
    expect(failureMessage(refused, origin)).toMatchObject({
      text: expect.stringMatching(
        /^This access token no longer works: it was revoked, or it expired\./,
      ),
      signIn: true,
    });
    expect(failureMessage(new PortalError('expired'), origin)).toMatchObject({
      text: 'This access token has expired. Make a new one in your settings, or ask for a new one.',
      signIn: true,
    });
  });

  it('shows the server’s message in the popup’s words, under the field it names', () => {
    expect(
      failureMessage(
        new PortalError('refused', 'body.url must be an http, https or mailto address'),
        origin,
      ),
    ).toEqual({
      text: 'Link address must be an http, https or mailto address.',
      field: 'url',
      signIn: false,
    });
    expect(readable('body/name must NOT have more than 200 characters')).toEqual({
      text: 'Link name must be at most 200 characters long.',
      field: 'name',
    });
    expect(readable('Suggestions come from the members of the team.')).toEqual({
      text: 'Suggestions come from the members of the team.',
      field: null,
    });
  });

  it('says what to do when the portal cannot be reached, is not one, or fails', () => {
    expect(failureMessage(new PortalError('network'), origin).text).toBe(
      'https://links.acme.example could not be reached. Check the address and your connection, then try again.',
    );
    expect(failureMessage(new PortalError('not-a-portal'), origin).text).toBe(
      'No Signpost portal answered at https://links.acme.example. Check the address.',
    );
    expect(failureMessage(new PortalError('unavailable'), origin).text).toBe(
      'Sorry, that did not work. Please try again.',
    );
    expect(failureMessage(new PortalError('not-found'), origin).text).toBe(
      'This collection is not there any more. Choose another one.',
    );
    expect(failureMessage(new PortalError('refused'), origin).text).toBe(
      'Sorry, that did not work. Please try again.',
    );
  });
});
