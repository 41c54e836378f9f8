import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { makeMenu } from '../../../test/menu-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { SpaceCard } from './space-card';

afterEach(() => clearSession());

const team: DisplaySpace = {
  id: 't-1',
  name: 'Finance',
  type: 'team',
  buddy: null,
  can: { addCollection: false },
  collections: [],
};

function withIntros(teamIntro: string) {
  const menu = makeMenu();
  setSessionToken('token');
  mockFetch([
    {
      path: '/api/consumer/menu',
      status: 200,
      body: {
        ...menu,
        organization: {
          ...menu.organization,
          intros: { personal: '', team: teamIntro, organization: '' },
        },
      },
    },
  ]);
  renderWithQuery(<SpaceCard space={team} profileName="Ada" onShowAll={() => {}} />);
}

describe('space card intro', () => {
  it("shows the organization's intro for the kind of space once the menu has it", async () => {
    withIntros('Links your finance colleagues keep up to date.');
    expect(
      await screen.findByText('Links your finance colleagues keep up to date.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Links your team shares.')).toBeNull();
  });

  it('keeps the built-in intro when the organization set none', () => {
    withIntros('');
    expect(screen.getByText('Links your team shares.')).toBeInTheDocument();
  });
});
