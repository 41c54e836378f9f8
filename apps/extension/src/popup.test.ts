// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BrowserTab, ExtensionApi } from './browser-api';
import { startPopup } from './popup';
import { makeMenu } from './test/menu-fixture';

const ORIGIN = 'https://links.acme.example';
const PAGE: BrowserTab = {
  id: 7,
  url: 'https://handbook.acme.example/onboarding',
  title: '  Onboarding handbook  ',
  active: true,
  lastAccessed: 3,
};

afterEach(() => {
  document.body.replaceChildren();
});

/** The extension's calls, answered from memory: storage, tabs, permissions. */
function fakeApi({
  stored = {},
  tabs = [PAGE],
  grant = true,
}: { stored?: Record<string, unknown>; tabs?: BrowserTab[]; grant?: boolean } = {}) {
  const store: Record<string, unknown> = { ...stored };
  const api = {
    storage: {
      local: {
        get: vi.fn(async (keys: string[]) =>
          Object.fromEntries(keys.filter((key) => key in store).map((key) => [key, store[key]])),
        ),
        set: vi.fn(async (items: Record<string, unknown>) => {
          Object.assign(store, items);
        }),
        remove: vi.fn(async (keys: string[]) => {
          for (const key of keys) delete store[key];
        }),
      },
    },
    tabs: {
      query: vi.fn(async (query: { active?: boolean }) =>
        tabs.filter((tab) => query.active === undefined || tab.active === query.active),
      ),
      create: vi.fn(async () => undefined),
    },
    permissions: {
      request: vi.fn(async () => grant),
      contains: vi.fn(async () => grant),
    },
    runtime: { getURL: (path: string) => `chrome-extension://signpost/${path}` },
  } satisfies ExtensionApi;
  return { api, store };
}

type Answer = Response | (() => Response | Promise<Response>);
interface Route {
  method: string;
  path: string;
  answers: Answer[];
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
const refusal = (status: number, code: string, message: string) =>
  json(status, { statusCode: status, error: 'Error', code, message, msg: message });
const noContent = () => new Response(null, { status: 204 });
const MENU =
  (menu = makeMenu()) =>
  () =>
    json(200, menu);

/** The portal: each route answers in turn, the last answer again once the others are used. */
function fakePortal(routes: Route[]) {
  const calls: { method: string; path: string; auth: string | null; body: unknown }[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const headers = init.headers as Record<string, string>;
    calls.push({
      method,
      path: url.pathname,
      auth: headers.Authorization ?? null,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    const route = routes.find((r) => r.method === method && r.path === url.pathname);
    if (!route) throw new Error(`no answer for ${method} ${url.pathname}`);
    const answer = route.answers.length > 1 ? route.answers.shift()! : route.answers[0]!;
    return typeof answer === 'function' ? answer() : answer.clone();
  });
  return { fetchImpl, calls };
}

const menuRoute = (...answers: Answer[]): Route => ({
  method: 'GET',
  path: '/api/consumer/menu',
  answers: answers.length > 0 ? answers : [MENU()],
});
const addRoute = (id: string, ...answers: Answer[]): Route => ({
  method: 'POST',
  path: `/api/consumer/collections/${id}/links`,
  answers: answers.length > 0 ? answers : [noContent],
});
const suggestRoute = (id: string, ...answers: Answer[]): Route => ({
  method: 'POST',
  path: `/api/consumer/collections/${id}/suggestions`,
  answers: answers.length > 0 ? answers : [noContent],
});

const SIGNED_IN = { origin: ORIGIN, token: 'spat_signed_in' };

async function open(options: Parameters<typeof fakeApi>[0] = {}, routes: Route[] = [menuRoute()]) {
  const root = document.createElement('main');
  document.body.append(root);
  const { api, store } = fakeApi(options);
  const portal = fakePortal(routes);
  const close = vi.fn();
  const user = userEvent.setup();
  await startPopup(root, { api, fetch: portal.fetchImpl, close });
  return { api, store, portal, close, user };
}

const field = (name: string) => screen.getByLabelText<HTMLInputElement>(name);
const chooser = () => screen.getByLabelText<HTMLSelectElement>('Collection');

describe('signing in', () => {
  it('asks for the portal and a token, asks the browser for the portal only, checks the token with the menu, and keeps both', async () => {
    const { api, store, portal, user } = await open();
    expect(screen.getByRole('heading', { name: 'Access your Signpost' })).toBeTruthy();
    await user.type(field('Portal address'), 'links.acme.example/some/page');
    await user.type(field('Access token'), ' spat_fresh ');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('heading', { name: 'Add this page' })).toBeTruthy();
    expect(api.permissions.request).toHaveBeenCalledWith({
      origins: ['https://links.acme.example/*'],
    });
    expect(portal.calls[0]).toMatchObject({
      method: 'GET',
      path: '/api/consumer/menu',
      auth: 'Bearer spat_fresh',
    });
    expect(store).toMatchObject({ origin: ORIGIN, token: 'spat_fresh' });
    expect(store.pendingToken).toBeUndefined();
    expect(screen.getByText('Ada Lovelace, Acme')).toBeTruthy();
    expect(field('Link name').value).toBe('Onboarding handbook');
    expect(field('Link address').value).toBe('https://handbook.acme.example/onboarding');
    expect(chooser().value).toBe('my');
  });

  it('refuses a missing or unencrypted address and a missing token before asking anything', async () => {
    const { api, portal, user } = await open();
    const submit = screen.getByRole('button', { name: 'Continue' });
    await user.click(submit);
    expect(field('Portal address').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter the address of your portal first.')).toBeTruthy();

    await user.type(field('Portal address'), 'http://links.acme.example');
    await user.click(submit);
    expect(
      screen.getByText('Use the portal’s https address: the token must not travel unencrypted.'),
    ).toBeTruthy();

    await user.clear(field('Portal address'));
    await user.type(field('Portal address'), ORIGIN);
    await user.click(submit);
    expect(field('Portal address').getAttribute('aria-invalid')).toBeNull();
    expect(field('Access token').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Paste your access token first.')).toBeTruthy();
    expect(document.activeElement).toBe(field('Access token'));
    expect(api.permissions.request).not.toHaveBeenCalled();
    expect(portal.calls).toEqual([]);
  });

  it('links to the portal, where tokens are made, once the address is one', async () => {
    const { user } = await open();
    expect(screen.queryByRole('link', { name: /Open the portal/ })).toBeNull();
    await user.type(field('Portal address'), 'links.acme.example');
    expect(screen.getByRole('link', { name: /Open the portal/ }).getAttribute('href')).toBe(
      `${ORIGIN}/`,
    );
  });

  it('says that the browser must allow the portal when that was refused, and calls nothing', async () => {
    const { portal, store, user } = await open({ grant: false });
    await user.type(field('Portal address'), ORIGIN);
    await user.type(field('Access token'), 'spat_fresh');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toSatisfy((alert: HTMLElement) =>
      (alert.textContent ?? '').startsWith(
        'The extension may only talk to https://links.acme.example once you allow it.',
      ),
    );
    expect(portal.calls).toEqual([]);
    expect(store.token).toBeUndefined();
    expect(store.pendingToken).toBeUndefined();
  });

  it('says under the token field that a pasted token is not valid, and keeps nothing', async () => {
    const { store, user } = await open({}, [
      menuRoute(refusal(401, 'UNAUTHORIZED', 'This access token is not valid.')),
    ]);
    await user.type(field('Portal address'), ORIGIN);
    await user.type(field('Access token'), 'spat_wrong');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText(
        'This access token is not valid. Check that you pasted all of it, or ask for a new one.',
      ),
    ).toBeTruthy();
    expect(field('Access token').getAttribute('aria-invalid')).toBe('true');
    expect(store.token).toBeUndefined();
    expect(store.pendingToken).toBeUndefined();
  });

  it('finishes a sign-in the browser interrupted to ask for the portal, once it is allowed', async () => {
    // Firefox asks for the host only once the popup is gone: the next popup finishes.
    const { api, store, portal } = await open({
      stored: { origin: ORIGIN, pendingToken: 'spat_pending' },
    });
    expect(await screen.findByRole('heading', { name: 'Add this page' })).toBeTruthy();
    expect(api.permissions.contains).toHaveBeenCalledWith({
      origins: ['https://links.acme.example/*'],
    });
    expect(portal.calls[0]).toMatchObject({ auth: 'Bearer spat_pending' });
    expect(store).toMatchObject({ origin: ORIGIN, token: 'spat_pending' });
    expect(store.pendingToken).toBeUndefined();
  });

  it('forgets an interrupted sign-in the browser was not allowed, and asks again', async () => {
    const { store, portal } = await open({
      stored: { origin: ORIGIN, pendingToken: 'spat_pending' },
      grant: false,
    });
    expect(screen.getByRole('heading', { name: 'Access your Signpost' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(
      /^The extension may only talk to https:\/\/links\.acme\.example once you allow it\./,
    );
    expect(field('Portal address').value).toBe(ORIGIN);
    expect(portal.calls).toEqual([]);
    expect(store.pendingToken).toBeUndefined();
    expect(store.token).toBeUndefined();
  });

  it('says when no portal answers at the address', async () => {
    const { user } = await open({}, [
      menuRoute(new Response('<html>Not found</html>', { status: 404 })),
    ]);
    await user.type(field('Portal address'), 'https://www.acme.example');
    await user.type(field('Access token'), 'spat_fresh');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No Signpost portal answered at https://www.acme.example. Check the address.',
    );
  });

  it('signing out forgets the token and keeps the address', async () => {
    const { store, user } = await open({ stored: SIGNED_IN });
    await screen.findByText('Ada Lovelace, Acme');
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Access your Signpost' })).toBeTruthy();
    expect(store.token).toBeUndefined();
    expect(store.origin).toBe(ORIGIN);
    expect(field('Portal address').value).toBe(ORIGIN);
    expect(screen.getByRole('status').textContent).toMatch(
      /^Signed out: this browser forgot the token\./,
    );
  });
});

describe('adding the page', () => {
  it('offers the collections of the menu, My Space first, and a team’s as a suggestion', async () => {
    await open({ stored: SIGNED_IN });
    await waitFor(() => expect(chooser().disabled).toBe(false));
    const groups = [...chooser().querySelectorAll('optgroup')].map((group) => [
      group.label,
      [...group.querySelectorAll('option')].map((option) => option.textContent),
    ]);
    expect(groups).toEqual([
      ['My Space', ['My Space', 'Reading list', 'Reading list › Talks', 'Launch checklist']],
      ['Shared collections', ['Design system']],
      [
        'Engineering',
        [
          'Suggest to Engineering: Code & delivery',
          'Suggest to Engineering: Code & delivery › Runbooks',
        ],
      ],
      ['Design', ['Design tools']],
      ['Acme', ['Suggest to Acme: Company essentials']],
    ]);
  });

  it('adds the page as edited to the chosen collection, says where, and remembers the choice', async () => {
    const { portal, store, user } = await open({ stored: SIGNED_IN }, [
      menuRoute(),
      addRoute('reading'),
    ]);
    await waitFor(() => expect(chooser().disabled).toBe(false));
    await user.clear(field('Link name'));
    await user.type(field('Link name'), 'Onboarding, the handbook');
    await user.type(field('Link description'), 'Read in week one');
    await user.selectOptions(chooser(), 'Reading list');
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('Added to Reading list.')).toBeTruthy();
    expect(portal.calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/consumer/collections/reading/links',
        auth: 'Bearer spat_signed_in',
        body: {
          name: 'Onboarding, the handbook',
          url: 'https://handbook.acme.example/onboarding',
          description: 'Read in week one',
        },
      },
    ]);
    expect(store.lastCollection).toBe('reading');
    // The menu is read again, so that "Already in" and the search know the new link.
    await waitFor(() =>
      expect(portal.calls.filter((call) => call.path === '/api/consumer/menu')).toHaveLength(2),
    );
  });

  it('preselects the collection used last', async () => {
    await open({ stored: { ...SIGNED_IN, lastCollection: 'talks' } });
    await waitFor(() => expect(chooser().value).toBe('talks'));
  });

  it('sends a suggestion where the person may only suggest, with the portal’s words', async () => {
    const { portal, user } = await open({ stored: SIGNED_IN }, [menuRoute(), suggestRoute('code')]);
    await waitFor(() => expect(chooser().disabled).toBe(false));
    await user.selectOptions(chooser(), 'code');
    expect(chooser().selectedOptions[0]?.textContent).toBe(
      'Suggest to Engineering: Code & delivery',
    );
    await user.click(screen.getByRole('button', { name: 'Send suggestion' }));
    expect(await screen.findByText('Thank you, your suggestion was sent.')).toBeTruthy();
    expect(portal.calls.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/consumer/collections/code/suggestions',
      body: { name: 'Onboarding handbook', url: 'https://handbook.acme.example/onboarding' },
    });
    await user.selectOptions(chooser(), 'My Space');
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
  });

  it('shows the server’s refusal under the field it is about', async () => {
    const { user } = await open({ stored: SIGNED_IN }, [
      menuRoute(),
      addRoute(
        'my',
        refusal(400, 'VALIDATION_ERROR', 'body.url must be an http, https or mailto address'),
      ),
    ]);
    await waitFor(() => expect(chooser().disabled).toBe(false));
    await user.clear(field('Link address'));
    await user.type(field('Link address'), 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(
      await screen.findByText('Link address must be an http, https or mailto address.'),
    ).toBeTruthy();
    expect(field('Link address').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Link address'));
    expect(screen.queryByText(/^Added to/)).toBeNull();
  });

  it('asks for a new token when the one kept was revoked, and keeps the address', async () => {
    const { store, user } = await open({ stored: SIGNED_IN }, [
      menuRoute(),
      addRoute('my', refusal(401, 'UNAUTHORIZED', 'This access token is not valid.')),
    ]);
    await waitFor(() => expect(chooser().disabled).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('heading', { name: 'Access your Signpost' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(
      /^This access token no longer works: it was revoked, or it expired\./,
    );
    expect(store.token).toBeUndefined();
    expect(field('Portal address').value).toBe(ORIGIN);
    expect(document.activeElement).toBe(field('Access token'));
  });

  it('says that a token expired when the menu says so', async () => {
    await open({ stored: SIGNED_IN }, [
      menuRoute(refusal(401, 'ACCESS_TOKEN_EXPIRED', 'This access token has expired.')),
    ]);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This access token has expired. Make a new one in your settings, or ask for a new one.',
    );
    expect(screen.getByRole('heading', { name: 'Access your Signpost' })).toBeTruthy();
  });

  it('says when the portal cannot be reached, and tries again on request', async () => {
    const { user } = await open({ stored: SIGNED_IN }, [
      menuRoute(() => Promise.reject(new TypeError('Failed to fetch')), MENU()),
    ]);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your collections could not be loaded. https://links.acme.example could not be reached. Check the address and your connection, then try again.',
    );
    expect(screen.getByRole('button', { name: 'Add' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(chooser().disabled).toBe(false));
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('reloads the chooser when the chosen collection is gone', async () => {
    const { portal, user } = await open({ stored: SIGNED_IN }, [
      menuRoute(),
      addRoute('my', refusal(404, 'NOT_FOUND', 'Collection not found')),
    ]);
    await waitFor(() => expect(chooser().disabled).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(
      await screen.findByText('This collection is not there any more. Choose another one.'),
    ).toBeTruthy();
    await waitFor(() =>
      expect(portal.calls.filter((call) => call.path === '/api/consumer/menu')).toHaveLength(2),
    );
  });

  it('says where the page already is', async () => {
    await open({
      stored: SIGNED_IN,
      tabs: [{ ...PAGE, url: 'https://developer.mozilla.org/', title: 'MDN' }],
    });
    expect(await screen.findByText('Already in My Space › Reading list.')).toBeTruthy();
  });

  it('opened as a page of its own, takes the tab used last before it', async () => {
    await open({
      stored: SIGNED_IN,
      tabs: [
        { id: 1, url: 'https://old.acme.example/', title: 'Older', active: false, lastAccessed: 1 },
        { ...PAGE, active: false, lastAccessed: 2 },
        { id: 9, url: 'chrome-extension://signpost/popup.html', title: 'Signpost', active: true },
      ],
    });
    expect(field('Link address').value).toBe('https://handbook.acme.example/onboarding');
    expect(field('Link name').value).toBe('Onboarding handbook');
  });

  it('leaves a browser page out, and says the address must be typed', async () => {
    await open({
      stored: SIGNED_IN,
      tabs: [{ id: 2, url: 'chrome://newtab/', title: 'New Tab', active: true }],
    });
    expect(field('Link address').value).toBe('');
    expect(field('Link name').value).toBe('');
    expect(
      await screen.findByText(
        'This page’s address cannot be read here: type or paste the address to add.',
      ),
    ).toBeTruthy();
    expect(document.activeElement).toBe(field('Link address'));
  });
});

describe('searching', () => {
  it('lists the links that match, where they are, and opens the first with Enter', async () => {
    const { api, close, user } = await open({ stored: SIGNED_IN });
    await waitFor(() => expect(chooser().disabled).toBe(false));
    await user.type(screen.getByRole('searchbox', { name: 'Search links' }), 'wiki');
    const results = screen.getByRole('list', { name: 'Search links' });
    const [found] = within(results).getAllByRole('link');
    expect(found?.textContent).toBe('Team wikiEngineering › Code & delivery (opens in a new tab)');
    expect(found?.getAttribute('href')).toBe('https://wiki.acme.example/');
    expect(found?.getAttribute('target')).toBe('_blank');
    expect(screen.getByText('1 link found')).toBeTruthy();

    await user.keyboard('{Enter}');
    expect(api.tabs.create).toHaveBeenCalledWith({ url: 'https://wiki.acme.example/' });
    await waitFor(() => expect(close).toHaveBeenCalled());
  });

  it('says when nothing matches', async () => {
    const { user } = await open({ stored: SIGNED_IN });
    await waitFor(() => expect(chooser().disabled).toBe(false));
    await user.type(screen.getByRole('searchbox', { name: 'Search links' }), 'zebra');
    expect(screen.getByText('No links match "zebra".')).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Search links' })).queryAllByRole('link'),
    ).toEqual([]);
  });
});
