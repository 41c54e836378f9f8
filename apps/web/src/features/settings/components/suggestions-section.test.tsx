import type { OwnSuggestion } from '@signpost/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { SuggestionsSection } from './suggestions-section';

afterEach(() => clearSession());

const base: OwnSuggestion = {
  id: 's-1',
  name: 'Wiki',
  url: 'https://wiki.acme.test/',
  description: '',
  status: 'open',
  reason: '',
  createdAt: '2026-02-01T10:00:00.000Z',
  decidedAt: null,
  linkId: null,
  collection: { id: 'c-1', name: 'Handbook' },
  space: { type: 'team', id: 't-1', name: 'Finance' },
};

describe('Your suggestions', () => {
  it('shows what became of each suggestion, with the reason of a declined one', async () => {
    setSessionToken('token');
    mockFetch([
      {
        path: '/api/consumer/suggestions',
        status: 200,
        body: {
          items: [
            base,
            {
              ...base,
              id: 's-2',
              name: 'Old intranet',
              status: 'declined',
              reason: 'It is being retired',
              decidedAt: '2026-02-03T10:00:00.000Z',
            },
          ],
          next: null,
        },
      },
    ]);
    renderWithQuery(<SuggestionsSection />);
    const list = await screen.findByRole('list', { name: 'Your suggestions' });
    const [open, declined] = within(list).getAllByRole('listitem');
    expect(open).toHaveTextContent('Wiki for Handbook in Finance');
    expect(open).toHaveTextContent('Waiting for a decision');
    expect(declined).toHaveTextContent('Declined');
    expect(declined).toHaveTextContent('Reason: It is being retired');
  });

  it('says so when there are none', async () => {
    setSessionToken('token');
    mockFetch([
      { path: '/api/consumer/suggestions', status: 200, body: { items: [], next: null } },
    ]);
    renderWithQuery(<SuggestionsSection />);
    expect(await screen.findByText('You have not suggested any links yet.')).toBeInTheDocument();
  });
});
