import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { makeLink, makeMenu } from '../../../test/menu-fixture';
import { processMenu } from '../../../lib/menu/process-menu';
import { NO_COLLECTION_CAN } from '../../../lib/menu/can';
import { RUNS } from '../../../test/can-fixture';
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

const OWNED_READ = NO_COLLECTION_CAN;

describe('space card: Show all', () => {
  const collection = (id: string, items: number, can = RUNS) => ({
    type: 'collection' as const,
    id,
    name: `Collection ${id}`,
    description: '',
    color: null,
    can,
    items: Array.from({ length: items }, (_, n) => makeLink({ id: `${id}-${n}` })),
  });

  it('counts the items, not the Add tile', () => {
    const shown = processMenu(
      makeMenu({
        teamEditor: true,
        teamCan: RUNS,
        teamItems: Array.from({ length: 14 }, (_, n) => makeLink({ id: `l-${n}` })),
      }),
    ).spaces.find((candidate) => candidate.type === 'team')!;
    renderWithQuery(<SpaceCard space={shown} profileName="Ada" onShowAll={() => {}} />);
    expect(screen.getByRole('button', { name: /Show all/ })).toHaveTextContent('14');
  });

  it('leads the people who run a space with several collections to them, whatever their size', () => {
    renderWithQuery(
      <SpaceCard
        space={{ ...team, collections: [collection('a', 2), collection('b', 0)] }}
        profileName="Ada"
        onShowAll={() => {}}
      />,
    );
    expect(screen.getByRole('button', { name: /Show all/ })).toHaveTextContent('2');
  });

  it('is not there for someone who only reads a small space', () => {
    renderWithQuery(
      <SpaceCard
        space={{
          ...team,
          collections: [collection('a', 2, OWNED_READ), collection('b', 1, OWNED_READ)],
        }}
        profileName="Ada"
        onShowAll={() => {}}
      />,
    );
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
  });
});

describe('space card: the top-level collections, for the people who run the space', () => {
  const top = (id: string, items: number, can = RUNS) => ({
    type: 'collection' as const,
    id,
    name: `Top ${id}`,
    description: '',
    color: null,
    can,
    items: Array.from({ length: items }, (_, n) => makeLink({ id: `${id}-t${n}` })),
  });

  it('opens each one, an empty one included, as its own panel', () => {
    const opened: string[] = [];
    renderWithQuery(
      <SpaceCard
        space={{ ...team, collections: [top('a', 2), top('b', 0)] }}
        profileName="Ada"
        onShowAll={() => {}}
        onOpenTopCollection={(id) => opened.push(id)}
      />,
    );
    const list = screen.getByRole('list', { name: 'Collections' });
    within(list).getByRole('button', { name: 'Top b' }).click();
    within(list).getByRole('button', { name: 'Top a' }).click();
    expect(opened).toEqual(['b', 'a']);
  });

  it('is not offered to someone who only reads the space', () => {
    renderWithQuery(
      <SpaceCard
        space={{ ...team, collections: [top('a', 2, OWNED_READ), top('b', 0, OWNED_READ)] }}
        profileName="Ada"
        onShowAll={() => {}}
        onOpenTopCollection={() => {}}
      />,
    );
    expect(screen.queryByRole('list', { name: 'Collections' })).toBeNull();
  });
});
