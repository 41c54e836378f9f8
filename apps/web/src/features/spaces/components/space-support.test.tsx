import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { clearSession } from '../../../lib/session-store';
import { renderWithQuery } from '../../../test/render-with-query';
import { SpaceCard } from './space-card';
import { SpacePanel } from './space-panel';
import { SpaceToolbar } from './space-toolbar';

afterEach(() => clearSession());

const buddy = { id: 'u-1', name: 'Ann Lee', email: 'ann+help@acme.test' };
const team = (withBuddy = true): DisplaySpace => ({
  id: 't-1',
  name: 'Finance',
  type: 'team',
  buddy: withBuddy ? buddy : null,
  can: { addCollection: false },
  collections: [],
});

const expectContact = (where: HTMLElement) => {
  expect(where).toHaveTextContent('Support contact: Ann Lee');
  expect(within(where).getByRole('link', { name: 'ann+help@acme.test' })).toHaveAttribute(
    'href',
    'mailto:ann%2Bhelp@acme.test',
  );
};

describe("a team's support contact where people look for help", () => {
  it('is on the team card, without opening anything', () => {
    renderWithQuery(<SpaceCard space={team()} profileName="Ada" onShowAll={() => {}} />);
    expectContact(screen.getByRole('region', { name: 'Finance' }));
  });

  it("is at the top of the team's Show all panel", () => {
    render(<SpacePanel space={team()} onClose={() => {}} />);
    expectContact(screen.getByRole('dialog', { name: 'Finance' }));
  });

  it('is not made up for a team without a buddy', () => {
    renderWithQuery(<SpaceCard space={team(false)} profileName="Ada" onShowAll={() => {}} />);
    expect(screen.getByRole('region', { name: 'Finance' })).not.toHaveTextContent(
      'Support contact',
    );
  });
});

describe('the space info popup closes as people expect', () => {
  it('closes on Escape and gives focus back to the space name', async () => {
    const user = userEvent.setup();
    renderWithQuery(<SpaceToolbar space={team()} />);
    const toggle = screen.getByRole('button', { name: /Finance/ });
    await user.click(toggle);
    const info = screen.getByRole('dialog', { name: 'Finance' });
    await user.click(within(info).getByText(/Support contact/));
    within(info).getByRole('link').focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Finance' })).not.toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('closes on a press elsewhere, and stays open on a press inside it', async () => {
    const user = userEvent.setup();
    render(
      <>
        <SpaceToolbar space={team()} />
        <p>Elsewhere</p>
      </>,
    );
    await user.click(screen.getByRole('button', { name: /Finance/ }));
    await user.click(screen.getByText(/Support contact/));
    expect(screen.getByRole('dialog', { name: 'Finance' })).toBeInTheDocument();
    await user.click(screen.getByText('Elsewhere'));
    expect(screen.queryByRole('dialog', { name: 'Finance' })).not.toBeInTheDocument();
  });
});
