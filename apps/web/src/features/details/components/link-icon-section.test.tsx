import type { LinkIconState } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { menuQueryKey } from '../../../lib/menu/get-menu';
import { findMySpace } from '../../../lib/menu/locate-item';
import type { LinkLike, SearchEntry } from '../../../lib/menu/menu-types';
import { RUN_LINK } from '../../../test/can-fixture';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { panelsMenu } from '../../../test/panels-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { LinkDetails } from './link-details';

// The icon section of a link's details (decision 0068).
const menu = panelsMenu();
const mySpaceId = findMySpace(menu.spaces)!.id;
const ICON = '/api/consumer/links/root-link/icon';
const KIB = 1024;

const FOUND: LinkIconState = {
  state: 'found',
  icon: '/api/icons/found1',
  foundAt: 'https://example.com/favicon.ico',
  checkedAt: '2025-05-01T10:00:00.000Z',
};
const UPLOADED: LinkIconState = {
  state: 'uploaded',
  icon: '/api/icons/mine1',
  foundAt: null,
  checkedAt: '2025-05-01T10:00:00.000Z',
};

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

function renderLink(id: string, item: Partial<LinkLike> = {}) {
  const found = menu.searchIndex.find((candidate) => candidate.item.id === id)!;
  const entry = { ...found, item: { ...found.item, ...item } } as SearchEntry;
  const { client } = renderWithQuery(
    <LinkDetails
      entry={entry}
      appLinks={[]}
      favoriteId={null}
      mySpaceId={mySpaceId}
      onClose={vi.fn()}
    />,
  );
  // A menu read before: a write on the icon must have it read again.
  client.setQueryData(menuQueryKey(null), menu);
  return { client };
}

function withIcon(state: LinkIconState, ...others: MockRoute[]) {
  return mockFetch([{ path: ICON, status: 200, body: state }, ...others]);
}

const png = (bytes = 4) =>
  new File([new Uint8Array(bytes).fill(137)], 'logo.png', { type: 'image/png' });
/** A Blob's bytes (jsdom's Blob has no arrayBuffer()). */
const bytesOf = (blob: Blob) =>
  new Promise<Uint8Array>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
const fileField = () => screen.getByLabelText<HTMLInputElement>('Image for the icon');
const uploadButton = () => screen.getByRole('button', { name: 'Upload an icon…' });
const section = () => screen.getByRole('region', { name: 'Icon' });

describe('the icon section of a link', () => {
  it.each([
    ['a personal link', 'root-link', {}, true],
    ['a team link its editor may change', 'team-link', { can: RUN_LINK }, true],
    ['a team link a member only reads', 'team-link', {}, false],
    ['a favorite, a pointer to another link', 'fav-1', {}, false],
  ])('shows for %s: %s', async (_case, id, item, shown) => {
    const { requests } = mockFetch([
      { path: `/api/consumer/links/${id}/icon`, status: 200, body: FOUND },
    ]);
    renderLink(id, item);
    expect(screen.getByRole('heading', { name: 'Link details' })).toBeInTheDocument();
    if (shown) {
      const status = within(section()).getByRole('status');
      await waitFor(() => expect(status).toHaveTextContent('Found on example.com.'));
      expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        `GET /api/consumer/links/${id}/icon`,
      ]);
    } else {
      expect(screen.queryByRole('region', { name: 'Icon' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Upload an icon…' })).not.toBeInTheDocument();
      expect(requests).toEqual([]);
    }
  });

  it.each([
    ['found on its site', FOUND, 'Found on example.com.'],
    [
      'found on a host written in punycode',
      { ...FOUND, foundAt: 'https://xn--80ak6aa92e.com/icon.png' },
      'Found on аррӏе.com (written xn--80ak6aa92e.com).',
    ],
    ['uploaded', UPLOADED, 'Uploaded by someone who may change this link.'],
    [
      'none found',
      { ...FOUND, state: 'none', icon: null, foundAt: null },
      'No icon was found on the site, so the first letter of the name shows.',
    ],
    [
      'not looked for yet',
      { state: 'pending', icon: null, foundAt: null, checkedAt: null },
      'The site has not been checked for an icon yet, so the first letter of the name shows for now.',
    ],
  ] as [string, LinkIconState, string][])(
    'says where it stands: %s',
    async (_case, state, line) => {
      withIcon(state);
      renderLink('root-link');
      const status = within(section()).getByRole('status');
      expect(status).toHaveTextContent('Checking where this icon comes from…');
      await waitFor(() => expect(status).toHaveTextContent(line));
      const img = section().querySelector('img');
      if (state.icon) expect(img).toHaveAttribute('src', `${state.icon}?size=64`);
      else expect(img).toBeNull();
      // Only an uploaded icon can give way to the site's.
      expect(screen.queryByRole('button', { name: "Use the site's icon" }) !== null).toBe(
        state.state === 'uploaded',
      );
    },
  );

  it('says so when where it stands cannot be read, and still takes an image', async () => {
    mockFetch([{ path: ICON, status: 500, body: { message: 'Database down' } }]);
    renderLink('root-link');
    const status = within(section()).getByRole('status');
    await waitFor(() =>
      expect(status).toHaveTextContent('Where this icon comes from could not be read just now.'),
    );
    expect(uploadButton()).toBeEnabled();
  });

  it('opens the file picker from its button, which the hint describes', async () => {
    withIcon(FOUND);
    renderLink('root-link');
    const click = vi.spyOn(fileField(), 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    uploadButton().focus();
    await user.keyboard('{Enter}');
    expect(click).toHaveBeenCalledTimes(1);
    expect(fileField()).toHaveAttribute('type', 'file');
    expect(fileField().accept.split(',')).toEqual(
      expect.arrayContaining(['image/png', 'image/jpeg', 'image/x-icon', '.ico']),
    );
    expect(uploadButton()).toHaveAccessibleDescription(/at most 256 KiB/);
  });

  it("uploads the file's bytes with its type, then reads the icon and the menu again", async () => {
    const { requests, routes } = withIcon(FOUND, { method: 'PUT', path: ICON, status: 204 });
    const { client } = renderLink('root-link');
    const status = within(section()).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Found on example.com.'));
    routes[0]!.body = UPLOADED;
    const file = png();
    await userEvent.setup().upload(fileField(), file);

    await waitFor(() =>
      expect(status).toHaveTextContent('Uploaded by someone who may change this link.'),
    );
    const put = requests.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe(ICON);
    expect(put.headers['Content-Type']).toBe('image/png');
    expect(put.raw).toBe(file);
    expect(await bytesOf(put.raw as Blob)).toEqual(new Uint8Array(4).fill(137));
    expect(requests.filter((r) => r.method === 'GET' && r.url === ICON)).toHaveLength(2);
    expect(client.getQueryState(menuQueryKey(null))?.isInvalidated).toBe(true);
    expect(section().querySelector('img')).toHaveAttribute('src', '/api/icons/mine1?size=64');
    expect(uploadButton()).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('sends an .ico the browser gave no type as an icon', async () => {
    const { requests } = withIcon(FOUND, { method: 'PUT', path: ICON, status: 204 });
    renderLink('root-link');
    const file = new File([new Uint8Array([0, 0, 1, 0])], 'site.ico', { type: '' });
    await userEvent.setup({ applyAccept: false }).upload(fileField(), file);
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(requests.find((r) => r.method === 'PUT')!.headers['Content-Type']).toBe('image/x-icon');
  });

  it.each([
    [
      'too large',
      png(256 * KIB + 1),
      '“logo.png” is 257 KiB, and an icon can be at most 256 KiB. Nothing was changed: please choose a smaller image.',
    ],
    [
      'not an image',
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
      '“notes.txt” is not a PNG, JPEG, GIF, WebP or ICO image. Nothing was changed: please choose one of those.',
    ],
    [
      'an image type the server does not take',
      new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }),
      '“logo.svg” is not a PNG, JPEG, GIF, WebP or ICO image.',
    ],
  ])('refuses a file %s before sending anything', async (_case, file, message) => {
    const { requests } = withIcon(FOUND, { method: 'PUT', path: ICON, status: 204 });
    renderLink('root-link');
    const status = within(section()).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Found on example.com.'));
    await userEvent.setup({ applyAccept: false }).upload(fileField(), file);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(status).toHaveTextContent('Found on example.com.');
    expect(screen.queryByRole('button', { name: /again/ })).not.toBeInTheDocument();
  });

  it("shows the server's message when it refuses the image", async () => {
    const message = 'The icon was not used: the file is not an image.';
    const { requests } = withIcon(FOUND, {
      method: 'PUT',
      path: ICON,
      status: 400,
      body: { code: 'VALIDATION_ERROR', message },
    });
    renderLink('root-link');
    await userEvent.setup().upload(fileField(), png());
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    // The same bytes would be refused again: another file is chosen instead.
    expect(screen.queryByRole('button', { name: /again/ })).not.toBeInTheDocument();
    expect(uploadButton()).toBeEnabled();
  });

  it('keeps the file when the network is gone, and sends it again', async () => {
    const { requests, fetchMock } = withIcon(FOUND, { method: 'PUT', path: ICON, status: 204 });
    renderLink('root-link');
    const status = within(section()).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Found on example.com.'));
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const file = png();
    const user = userEvent.setup();
    await user.upload(fileField(), file);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You are offline, so this change was not made.',
    );
    expect(requests.filter((r) => r.method === 'PUT')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Send “logo.png” again' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(requests.find((r) => r.method === 'PUT')!.raw).toBe(file);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /again/ })).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(uploadButton()).toHaveFocus();
  });

  it("goes back to the site's icon", async () => {
    const pending: LinkIconState = { state: 'pending', icon: null, foundAt: null, checkedAt: null };
    const { requests, routes } = withIcon(UPLOADED, { method: 'DELETE', path: ICON, status: 204 });
    const { client } = renderLink('root-link');
    const button = await screen.findByRole('button', { name: "Use the site's icon" });
    routes[0]!.body = pending;
    const user = userEvent.setup();
    await user.click(button);

    await waitFor(() =>
      expect(within(section()).getByRole('status')).toHaveTextContent(
        'The site has not been checked for an icon yet',
      ),
    );
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([ICON]);
    expect(client.getQueryState(menuQueryKey(null))?.isInvalidated).toBe(true);
    expect(screen.queryByRole('button', { name: "Use the site's icon" })).not.toBeInTheDocument();
    expect(uploadButton()).toHaveFocus();
  });

  it("shows the server's message when going back to the site's icon is refused", async () => {
    const message = 'Only the editors of Engineering may change its links.';
    withIcon(UPLOADED, { method: 'DELETE', path: ICON, status: 403, body: { message } });
    renderLink('root-link');
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: "Use the site's icon" }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: "Use the site's icon" })).toBeInTheDocument();
  });
});
