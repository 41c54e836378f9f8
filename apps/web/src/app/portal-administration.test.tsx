// What the portal shows from the menu's `can` (decision 0008): the Administration entry and
// the open-suggestions badge for the people who run something, the Add item in a team space
// for its editors, and nothing of it for everyone else.
import type { Menu } from '@signpost/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../lib/session-store';
import { RUN_LINK, RUNS } from '../test/can-fixture';
import { mockFetch } from '../test/fetch-mock';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

afterEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
});

/** The console's sections, as its navigation lists them. */
const sections = () =>
  within(screen.getByRole('navigation', { name: 'Sections' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

/** The browser's back button: the history moves, and the page hears it. */
async function goBack() {
  await act(async () => {
    await new Promise<void>((resolve) => {
      window.addEventListener('popstate', () => resolve(), { once: true });
      window.history.back();
    });
  });
}

function start(menu: Menu) {
  setSessionToken('token-a');
  mockFetch([{ path: '/api/consumer/menu', status: 200, body: menu, headers: { ETag: '"v1"' } }]);
  return renderApp();
}

/** The menu of a team's editor, with suggestions waiting in the team. */
function editorMenu(openSuggestions: number) {
  const menu = makeMenu({
    teamEditor: true,
    teamCan: RUNS,
    teamItems: [makeLink({ name: 'Runbook', can: RUN_LINK })],
  });
  menu.spaces[1]!.openSuggestions = openSuggestions;
  return menu;
}

describe('administration in the portal', () => {
  it('shows a plain member neither the Administration entry nor a badge nor an Add item in the team', async () => {
    start(makeMenu({ teamItems: [makeLink({ name: 'Runbook' })] }));
    const team = await screen.findByRole('region', { name: 'Engineering' });
    expect(within(team).queryByRole('button', { name: 'Add' })).not.toBeInTheDocument();
    expect(within(team).queryByRole('button', { name: /suggested link/ })).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('contentinfo')).queryByRole('button', { name: 'Administration' }),
    ).not.toBeInTheDocument();
  });

  it('gives a team editor the Add item first in the team card', async () => {
    start(editorMenu(0));
    const team = await screen.findByRole('region', { name: 'Engineering' });
    const first = within(team).getAllByRole('listitem')[0]!;
    expect(within(first).getByRole('button', { name: 'Add' })).toBeInTheDocument();
    // No badge when nothing waits.
    expect(within(team).queryByRole('button', { name: /suggested link/ })).not.toBeInTheDocument();
  });

  it('counts the waiting suggestions on the team card and opens them in the console', async () => {
    const user = userEvent.setup();
    start(editorMenu(3));
    const team = await screen.findByRole('region', { name: 'Engineering' });
    const badge = within(team).getByRole('button', {
      name: '3 suggested links waiting for a decision',
    });
    expect(badge).toHaveTextContent('3');
    await user.click(badge);
    await screen.findByRole('main', { name: 'Administration' });
    // An editor's console: the Suggestions section, at its own address, and the broken links
    // of their teams.
    expect(window.location.pathname).toBe('/console/suggestions');
    expect(sections()).toEqual(['Suggestions', 'Broken links']);
    expect(screen.getByRole('link', { name: 'Suggestions' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('opens the whole console from the footer; back walks its sections, then returns to the portal', async () => {
    const user = userEvent.setup();
    start(makeMenu({ admin: true }));
    await screen.findByRole('region', { name: 'My Space' });
    await user.click(
      within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Administration' }),
    );
    await screen.findByRole('main', { name: 'Administration' });
    expect(sections()).toEqual([
      'People',
      'Teams',
      'Suggestions',
      'Broken links',
      'Organization',
      'Audit log',
    ]);
    // `/console` shows its first section, and says so in the address.
    await waitFor(() => expect(window.location.pathname).toBe('/console/people'));
    expect(document.title).toBe('People · Administration');
    await user.click(screen.getByRole('link', { name: 'Audit log' }));
    expect(window.location.pathname).toBe('/console/audit');
    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeInTheDocument();
    // The new view is announced as a page would be: focus moves to its content.
    expect(document.activeElement).toContainElement(
      screen.getByRole('heading', { name: 'Audit log' }),
    );

    await goBack();
    expect(window.location.pathname).toBe('/console/people');
    expect(await screen.findByRole('heading', { name: 'People' })).toBeInTheDocument();
    await goBack();
    expect(window.location.pathname).toBe('/');
    expect(await screen.findByRole('region', { name: 'My Space' })).toBeInTheDocument();
    expect(screen.queryByRole('main', { name: 'Administration' })).not.toBeInTheDocument();
  });

  it('closes back to the portal from a section deep in the console', async () => {
    const user = userEvent.setup();
    start(makeMenu({ admin: true }));
    await screen.findByRole('region', { name: 'My Space' });
    await user.click(
      within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Administration' }),
    );
    await user.click(await screen.findByRole('link', { name: 'Organization' }));
    await user.click(screen.getByRole('link', { name: 'Broken links' }));
    expect(window.location.pathname).toBe('/console/broken-links');
    await user.click(screen.getByRole('button', { name: 'Back to the portal' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(await screen.findByRole('region', { name: 'My Space' })).toBeInTheDocument();
    expect(document.title).not.toContain('Administration');
  });

  it('opens the section an address names, as after a reload or from a bookmark', async () => {
    window.history.replaceState(null, '', '/console/organization');
    start(makeMenu({ admin: true }));
    expect(await screen.findByRole('link', { name: 'Organization' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.queryByRole('region', { name: 'My Space' })).not.toBeInTheDocument();
  });

  it('gives someone who runs nothing the portal and says why, at the portal address', async () => {
    window.history.replaceState(null, '', '/console/people/someone');
    start(makeMenu({ teamItems: [makeLink({ name: 'Runbook' })] }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The administration console is for the people who run the organization or a team.',
    );
    expect(screen.getByRole('region', { name: 'My Space' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/');
    expect(screen.queryByRole('main', { name: 'Administration' })).not.toBeInTheDocument();
  });

  it("gives a team editor their first section for an administrator's address", async () => {
    window.history.replaceState(null, '', '/console/audit');
    start(editorMenu(0));
    expect(await screen.findByRole('link', { name: 'Suggestions' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await waitFor(() => expect(window.location.pathname).toBe('/console/suggestions'));
    expect(screen.queryByRole('link', { name: 'Audit log' })).not.toBeInTheDocument();
  });
});
