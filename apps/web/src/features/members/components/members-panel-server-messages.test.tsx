import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { MembersPanel } from './members-panel';

// What the members panel shows when the server refuses (decision 0055).
const PEOPLE = [
  { id: 'p1', name: 'Grace Hopper', email: 'grace@example.com' },
  { id: 'p2', name: 'Alan Turing', email: 'alan@example.com' },
];

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

async function share(status: number, message: string) {
  mockFetch([
    { path: /^\/api\/consumer\/peers$/, status: 200, body: { items: PEOPLE } },
    { method: 'POST', path: '/api/consumer/collection-shares/', status, body: { message } },
  ]);
  const onClose = vi.fn();
  renderWithQuery(<MembersPanel collection={{ id: 'c1', name: 'Launch' }} onClose={onClose} />);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('checkbox', { name: /Grace Hopper/ }));
  await user.click(screen.getByRole('button', { name: 'Add' }));
  return { onClose };
}

describe("MembersPanel: the server's message", () => {
  it.each([
    [409, 'This collection is inside a shared collection; share that one instead.'],
    [403, 'Only the owner of a collection can share it.'],
  ])('shows a %i refusal beside the Add button', async (status, message) => {
    const { onClose } = await share(status, message);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('names the selection by its label when the server refuses it', async () => {
    await share(400, 'body.memberIds must NOT have more than 100 items');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Selected people must hold at most 100.',
    );
  });

  it.each([500, 404])('keeps the polite text for a %i', async (status) => {
    await share(status, 'Collection c1 was not found');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, that did not work. Please try again.',
    );
  });
});
