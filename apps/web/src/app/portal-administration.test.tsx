// What the portal shows from the menu's `can` (decision 0008): the Administration entry and
// the open-suggestions badge for the people who run something, the Add item in a team space
// for its editors, and nothing of it for everyone else.
import type { Menu } from '@signpost/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../lib/session-store';
import { RUN_LINK, RUNS } from '../test/can-fixture';
import { mockFetch } from '../test/fetch-mock';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

afterEach(() => clearSession());

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
    const console = await screen.findByRole('dialog', { name: 'Administration' });
    // An editor's console: the Suggestions tab, open, and the broken links of their teams.
    expect(
      within(console)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Suggestions', 'Broken links']);
    expect(within(console).getByRole('tab', { name: 'Suggestions' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('opens the whole console from the footer for an administrator', async () => {
    const user = userEvent.setup();
    start(makeMenu({ admin: true }));
    await screen.findByRole('region', { name: 'My Space' });
    await user.click(
      within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Administration' }),
    );
    const console = await screen.findByRole('dialog', { name: 'Administration' });
    expect(
      within(console)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['People', 'Teams', 'Suggestions', 'Broken links', 'Organization', 'Audit log']);
  });
});
