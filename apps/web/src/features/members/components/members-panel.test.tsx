import type { Person } from '@signpost/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PEERS_PAGE_SIZE, PEERS_SEARCH_DEBOUNCE_MS } from '../../../lib/constants';
import { renderWithQuery } from '../../../test/render-with-query';
import { MembersPanel } from './members-panel';

const EVERYONE: Person[] = Array.from({ length: 45 }, (_, i) => ({
  id: `p${i}`,
  name: `Person ${String(i).padStart(2, '0')}`,
  email: `person${i}@example.com`,
}));

/**
 * A peers endpoint over EVERYONE that honours limit, offset and query. A share (any POST) is
 * recorded in `shares` and answered with `shareStatus()`.
 */
function stubPeers(
  options: { status?: number; shares?: unknown[]; shareStatus?: () => number } = {},
) {
  const urls: URL[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    if (init.method === 'POST') {
      options.shares?.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
      const status = options.shareStatus?.() ?? 204;
      return new Response(status === 204 ? null : '{"message":"refused"}', { status });
    }
    urls.push(url);
    if (options.status) return new Response('{"message":"down"}', { status: options.status });
    const limit = Number(url.searchParams.get('limit'));
    const offset = Number(url.searchParams.get('offset'));
    const query = (url.searchParams.get('query') ?? '').toLowerCase();
    const matches = EVERYONE.filter((p) => p.name.toLowerCase().includes(query));
    return new Response(JSON.stringify({ items: matches.slice(offset, offset + limit) }), {
      status: 200,
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return urls;
}

function scrollTo(list: HTMLElement, { top, height = 2000, box = 400 }: Record<string, number>) {
  Object.defineProperty(list, 'scrollHeight', { configurable: true, value: height });
  Object.defineProperty(list, 'clientHeight', { configurable: true, value: box });
  Object.defineProperty(list, 'scrollTop', { configurable: true, value: top });
  fireEvent.scroll(list);
  // Back to the top, so that only this scroll asks for a page.
  Object.defineProperty(list, 'scrollTop', { configurable: true, value: 0 });
}

function renderPanel(members: Person[] = []) {
  const onClose = vi.fn();
  renderWithQuery(
    <MembersPanel collection={{ id: 'c1', name: 'Launch', members }} onClose={onClose} />,
  );
  return { onClose };
}

const peopleList = () => screen.getByRole('group', { name: 'People' });
const boxes = () => within(peopleList()).queryAllByRole('checkbox');

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('MembersPanel', () => {
  it('is titled with the collection and loads 20 people on open', async () => {
    const urls = stubPeers();
    renderPanel();
    expect(screen.getByRole('heading', { name: 'Add members to Launch' })).toBeInTheDocument();
    await waitFor(() => expect(boxes()).toHaveLength(PEERS_PAGE_SIZE));
    expect(urls[0]!.pathname).toBe('/api/consumer/peers');
    expect(urls[0]!.searchParams.get('limit')).toBe('20');
    expect(urls[0]!.searchParams.get('offset')).toBe('0');
    expect(urls[0]!.searchParams.has('query')).toBe(false);
  });

  it('loads the next page within 50 px of the bottom, and stops after an empty page', async () => {
    const urls = stubPeers();
    renderPanel();
    await waitFor(() => expect(boxes()).toHaveLength(20));
    // 51 px from the bottom: nothing more.
    scrollTo(peopleList(), { top: 2000 - 400 - 51 });
    expect(urls).toHaveLength(1);
    scrollTo(peopleList(), { top: 2000 - 400 - 50 });
    await waitFor(() => expect(boxes()).toHaveLength(40));
    expect(urls[1]!.searchParams.get('offset')).toBe('20');
    scrollTo(peopleList(), { top: 1600 });
    await waitFor(() => expect(boxes()).toHaveLength(45));
    expect(urls[2]!.searchParams.get('offset')).toBe('40');
    scrollTo(peopleList(), { top: 1600 });
    await waitFor(() => expect(urls).toHaveLength(4));
    expect(urls[3]!.searchParams.get('offset')).toBe('45');
    // The fourth page was empty: scrolling loads nothing more.
    await waitFor(() => expect(peopleList()).toHaveAttribute('aria-busy', 'false'));
    scrollTo(peopleList(), { top: 1600 });
    scrollTo(peopleList(), { top: 1600 });
    expect(urls).toHaveLength(4);
  });

  it('debounces the search by 250 ms and starts again from the first page', async () => {
    vi.useFakeTimers();
    const urls = stubPeers();
    renderPanel();
    await act(async () => {});
    expect(urls).toHaveLength(1);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search people' }), {
      target: { value: 'Person 1' },
    });
    await act(async () => vi.advanceTimersByTime(PEERS_SEARCH_DEBOUNCE_MS - 1));
    expect(urls).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(1));
    expect(urls).toHaveLength(2);
    expect(urls[1]!.searchParams.get('query')).toBe('Person 1');
    expect(urls[1]!.searchParams.get('offset')).toBe('0');
    await act(async () => {});
    // Person 10 to Person 19.
    expect(boxes()).toHaveLength(10);
  });

  it('shows members checked and not selectable', async () => {
    stubPeers();
    renderPanel([EVERYONE[2]!]);
    const member = await screen.findByRole('checkbox', { name: /Person 02/ });
    expect(member).toBeChecked();
    expect(member).toBeDisabled();
    expect(member.closest('label')).toHaveTextContent('Already a member');
    expect(screen.getByRole('checkbox', { name: /Person 03/ })).toBeEnabled();
  });

  it('selects people as removable chips, each at most once', async () => {
    stubPeers();
    const user = userEvent.setup();
    renderPanel();
    await user.click(await screen.findByRole('checkbox', { name: /Person 04/ }));
    await user.click(screen.getByRole('checkbox', { name: /Person 07/ }));
    const chips = () => screen.getByRole('list', { name: 'Selected people' });
    expect(
      within(chips())
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Person 04', 'Person 07']);
    // Found again through a search, the person is still selected once.
    await user.type(screen.getByRole('searchbox', { name: 'Search people' }), 'Person 04');
    // The search waits for the typing to pause, then asks the server: give it time on a busy machine.
    await waitFor(() => expect(boxes()).toHaveLength(1), { timeout: 5000 });
    expect(screen.getByRole('checkbox', { name: /Person 04/ })).toBeChecked();
    expect(within(chips()).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove Person 04' }));
    expect(
      within(chips())
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Person 07']);
    expect(screen.getByRole('checkbox', { name: /Person 04/ })).not.toBeChecked();
  });

  it('adds the selected people and closes; on failure it stays open with a message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const shares: unknown[] = [];
    let shareStatus = 500;
    stubPeers({ shares, shareStatus: () => shareStatus });
    const user = userEvent.setup();
    const { onClose } = renderPanel([]);
    expect(screen.getByRole('button', { name: 'Add' })).toBeDisabled();
    await user.click(await screen.findByRole('checkbox', { name: /Person 05/ }));
    await user.click(screen.getByRole('checkbox', { name: /Person 06/ }));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(shares).toEqual([
      {
        path: '/api/consumer/collection-shares/',
        body: { collectionId: 'c1', memberIds: ['p5', 'p6'] },
      },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, that did not work.');
    expect(onClose).not.toHaveBeenCalled();
    shareStatus = 204;
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('shows an empty list when the people cannot be fetched', async () => {
    const urls = stubPeers({ status: 500 });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderPanel();
    expect(await screen.findByText('No people found.')).toBeInTheDocument();
    expect(boxes()).toHaveLength(0);
    expect(urls).toHaveLength(1);
  });
});
