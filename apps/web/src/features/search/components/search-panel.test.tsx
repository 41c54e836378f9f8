import type { FavoriteItem } from '@signpost/contract';
import { render, renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { FAVORITE } from '../../../test/can-fixture';
import { makeLink, makeMenu } from '../../../test/menu-fixture';
import type { LinkLike } from '../../../lib/menu/menu-types';
import { processMenu } from '../../../lib/menu/process-menu';
import { setSessionToken } from '../../../lib/session-store';
import { readPerTokenList, writePerTokenList } from '../../../lib/storage';
import { useSearchShortcut } from '../hooks/use-search-shortcut';
import { SearchPanel } from './search-panel';

const github = makeLink({ name: 'GitHub', url: 'https://github.com', appName: 'GitHub' });
const favorite: FavoriteItem = {
  type: 'link-favorite',
  id: 'favorite-github',
  linkId: github.id,
  can: FAVORITE,
  name: github.name,
  description: github.description,
  url: github.url,
  icon: null,
  appName: github.appName,
};
const index = processMenu(
  makeMenu({
    myItems: [
      makeLink({
        name: 'My pull requests',
        url: 'https://github.com/pulls',
        appName: 'GitHub',
      }),
      favorite,
      makeLink({ name: 'Gitter', url: 'javascript:alert(1)' }),
    ],
    teamItems: [github, makeLink({ name: 'Grafana', url: 'https://grafana.com' })],
  }),
).searchIndex;

// Each test has its own token: the recent lists are kept per token.
let token = 0;
let currentToken = '';
beforeEach(() => {
  token += 1;
  currentToken = `search-token-${token}`;
  setSessionToken(currentToken);
});

let open: MockInstance<typeof window.open>;
beforeEach(() => {
  open = vi.spyOn(window, 'open').mockReturnValue(null);
});
afterEach(() => {
  open.mockRestore();
});

function renderPanel() {
  const onOpenLink = vi.fn<(link: LinkLike) => void>();
  const onClose = vi.fn();
  render(<SearchPanel index={index} onClose={onClose} onOpenLink={onOpenLink} />);
  const input = screen.getByRole('combobox', { name: 'Search links' });
  return { input, onOpenLink, onClose, user: userEvent.setup() };
}

const optionNames = (listbox: HTMLElement) =>
  within(listbox)
    .getAllByRole('option')
    .map((option) => option.querySelector('.option__name')?.textContent);

describe('the search combobox', () => {
  it('starts with what was typed right after the shortcut, before the field was there', async () => {
    renderHook(() => useSearchShortcut(() => {}));
    for (const key of ['/', 'g', 'i', 't']) {
      window.dispatchEvent(new KeyboardEvent('keydown', { key, cancelable: true }));
    }
    const { input } = renderPanel();
    expect(input).toHaveValue('git');
    expect(input).toHaveFocus();
    const results = await screen.findByRole('listbox', { name: 'Results' });
    expect(optionNames(results)[0]).toMatch(/^GitHub/);
  });

  it('lists the results, best first, in a listbox the field controls', async () => {
    const { input, user } = renderPanel();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveAttribute('aria-autocomplete', 'list');
    await user.type(input, 'git');
    const listbox = await screen.findByRole('listbox', { name: 'Results' });
    expect(optionNames(listbox)).toEqual(['GitHub', 'Gitter', 'My pull requests']);
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(input).toHaveAttribute('aria-controls', listbox.id);
    expect(input).not.toHaveAttribute('aria-activedescendant');
    expect(screen.getByRole('status')).toHaveTextContent('3 links found');
  });

  it('moves through the results with the arrow keys, wrapping around', async () => {
    const { input, user } = renderPanel();
    await user.type(input, 'git');
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    const activeName = () =>
      document
        .getElementById(input.getAttribute('aria-activedescendant') ?? '')
        ?.querySelector('.option__name')?.textContent;

    await user.keyboard('{ArrowDown}');
    expect(activeName()).toBe('GitHub');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(options[1]).toHaveAttribute('aria-selected', 'false');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeName()).toBe('My pull requests');
    await user.keyboard('{ArrowDown}');
    expect(activeName()).toBe('GitHub');
    await user.keyboard('{ArrowUp}');
    expect(activeName()).toBe('My pull requests');
    // The focus never leaves the field.
    expect(input).toHaveFocus();
  });

  it('opens the highlighted result’s details from its Details button, or a right-click', async () => {
    const onOpenDetails = vi.fn();
    const user = userEvent.setup();
    render(
      <SearchPanel
        index={index}
        onClose={() => {}}
        onOpenLink={() => {}}
        onOpenDetails={onOpenDetails}
      />,
    );
    const input = screen.getByRole('combobox');
    await user.type(input, 'git');
    await screen.findByRole('listbox');
    expect(screen.queryByRole('button', { name: /^Details of/ })).toBeNull();
    await user.keyboard('{ArrowDown}');
    await user.click(screen.getByRole('button', { name: 'Details of “GitHub”' }));
    expect(onOpenDetails).toHaveBeenLastCalledWith(
      expect.objectContaining({ item: expect.objectContaining({ name: 'GitHub' }) }),
    );
    await user.pointer({
      keys: '[MouseRight]',
      target: screen.getByRole('option', { name: /My pull requests/ }),
    });
    expect(onOpenDetails).toHaveBeenLastCalledWith(
      expect.objectContaining({ item: expect.objectContaining({ name: 'My pull requests' }) }),
    );
    expect(open).not.toHaveBeenCalled();
  });

  it('starts from the last result with ArrowUp, and forgets the active one on typing', async () => {
    const { input, user } = renderPanel();
    await user.type(input, 'git');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('option', { selected: true })).toHaveTextContent('My pull requests');
    await user.type(input, 'h');
    expect(input).not.toHaveAttribute('aria-activedescendant');
    expect(screen.queryByRole('option', { selected: true })).toBeNull();
  });

  it('opens the active result with Enter as a click does: a new tab, last used, recent search', async () => {
    const { input, onOpenLink, user } = renderPanel();
    await user.type(input, 'git');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(open).toHaveBeenCalledExactlyOnceWith(
      'https://github.com/',
      '_blank',
      'noopener,noreferrer',
    );
    // The original link, not the favorite that comes first in the index.
    expect(onOpenLink).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ id: github.id }));
    expect(readPerTokenList('recent-searches', currentToken)).toEqual(['git']);

    await user.click(screen.getByRole('option', { name: /My pull requests/ }));
    expect(open).toHaveBeenLastCalledWith(
      'https://github.com/pulls',
      '_blank',
      'noopener,noreferrer',
    );
    expect(onOpenLink).toHaveBeenLastCalledWith(
      expect.objectContaining({ name: 'My pull requests' }),
    );
  });

  it('opens nothing on Enter without an active option, nor for an unsafe address', async () => {
    const { input, onOpenLink, user } = renderPanel();
    await user.type(input, 'gitt');
    const unsafe = await screen.findByRole('option', { name: /Gitter/ });
    expect(unsafe).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    await user.keyboard('{ArrowDown}{Enter}');
    await user.click(unsafe);
    expect(open).not.toHaveBeenCalled();
    expect(onOpenLink).not.toHaveBeenCalled();
    // Enter without an active option still keeps the query as a recent search.
    expect(readPerTokenList('recent-searches', currentToken)).toEqual(['gitt']);
  });

  it('moves through the recent searches shown, and Enter makes one the query', async () => {
    writePerTokenList('recent-searches', currentToken, ['grafana', 'wiki', 'zoom', 'payr']);
    const { input, user } = renderPanel();
    const listbox = screen.getByRole('listbox', { name: 'Recent searches' });
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(input).toHaveAttribute('aria-controls', listbox.id);
    expect(within(listbox).getAllByRole('option')).toHaveLength(3);
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('option', { selected: true })).toHaveTextContent('zoom');

    await user.click(screen.getByRole('button', { name: 'Show More' }));
    expect(within(listbox).getAllByRole('option')).toHaveLength(4);
    input.focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('option', { selected: true })).toHaveTextContent('payr');
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('option', { selected: true })).toHaveTextContent('grafana');
    await user.keyboard('{Enter}');
    expect(input).toHaveValue('grafana');
    const results = await screen.findByRole('listbox', { name: 'Results' });
    expect(optionNames(results)).toEqual(['Grafana']);
    expect(open).not.toHaveBeenCalled();
  });

  it('makes a clicked recent search the query, keeping the focus in the field', async () => {
    writePerTokenList('recent-searches', currentToken, ['wiki']);
    const { input, user } = renderPanel();
    await user.click(screen.getByRole('option', { name: 'wiki' }));
    expect(input).toHaveValue('wiki');
    expect(input).toHaveFocus();
  });

  it('has nothing to move through while nothing is listed', async () => {
    const { input, user } = renderPanel();
    await user.keyboard('{ArrowDown}{ArrowUp}');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).not.toHaveAttribute('aria-activedescendant');
    await user.type(input, 'zzz');
    await screen.findByText('No links match "zzz".');
    await user.keyboard('{ArrowDown}');
    expect(input).not.toHaveAttribute('aria-activedescendant');
  });
});
