import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findMySpace, locateCollection } from '../../../lib/menu/locate-item';
import { mockFetch } from '../../../test/fetch-mock';
import { PROFILE } from '../../../test/menu-fixture';
import { panelsMenu } from '../../../test/panels-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { CollectionDetails } from './collection-details';
import { LinkDetails } from './link-details';

// What the details panels show when the server refuses (decision 0055).
const menu = panelsMenu();
const mySpaceId = findMySpace(menu.spaces)!.id;
const GENERIC = 'Sorry, that did not work. Please try again.';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

function renderCollection(id: string) {
  const onClose = vi.fn();
  renderWithQuery(
    <CollectionDetails
      collection={locateCollection(menu.spaces, id)!.collection}
      profileId={PROFILE.id}
      onClose={onClose}
    />,
  );
  return { onClose };
}

function renderLink(id: string) {
  const onClose = vi.fn();
  const entry = menu.searchIndex.find((candidate) => candidate.item.id === id)!;
  renderWithQuery(
    <LinkDetails
      entry={entry}
      appLinks={[]}
      favoriteId={null}
      mySpaceId={mySpaceId}
      onClose={onClose}
    />,
  );
  return { onClose };
}

describe('link details', () => {
  it("shows a 409's message beside the action", async () => {
    const message = 'This link is already one of your favorites.';
    mockFetch([
      {
        method: 'POST',
        path: '/api/consumer/collections/my/favorites',
        status: 409,
        body: { message },
      },
    ]);
    const { onClose } = renderLink('team-link');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add to My Space' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(onClose).not.toHaveBeenCalled();
  });

  it.each([
    [500, 'Something went wrong on our side.'],
    [404, 'Link root-link was not found'],
  ])('keeps the polite text for a %i', async (status, message) => {
    mockFetch([
      { method: 'DELETE', path: '/api/consumer/links/root-link', status, body: { message } },
    ]);
    renderLink('root-link');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Delete link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(GENERIC);
    expect(screen.getByRole('alert')).not.toHaveTextContent(message);
  });
});

describe('collection details', () => {
  it("shows a 403's message beside the action", async () => {
    const message = 'Only the owner of a collection can delete it.';
    mockFetch([
      {
        method: 'DELETE',
        path: '/api/consumer/collections/projects/',
        status: 403,
        body: { message },
      },
    ]);
    const { onClose } = renderCollection('projects');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Delete collection' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(onClose).not.toHaveBeenCalled();
  });

  async function suggest(status: number, message: string) {
    mockFetch([
      {
        method: 'POST',
        path: '/api/consumer/collections/team-sub/suggestions',
        status,
        body: { message },
      },
    ]);
    renderCollection('team-sub');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Suggest a link' }));
    await user.type(screen.getByRole('textbox', { name: 'Link address' }), 'javascript:alert(1)');
    await user.type(screen.getByRole('textbox', { name: 'Link name' }), 'Nope');
    await user.click(screen.getByRole('button', { name: 'Send suggestion' }));
  }

  it('shows a refused address of a suggestion under the Link address field', async () => {
    await suggest(400, 'body.url must be an http, https or mailto address');
    const address = screen.getByRole('textbox', { name: 'Link address' });
    await waitFor(() => expect(address).toHaveAttribute('aria-invalid', 'true'));
    expect(address).toHaveAccessibleDescription(
      'Link address must be an http, https or mailto address.',
    );
    expect(address).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows a refusal of a suggestion that names no field beside the form', async () => {
    await suggest(403, 'Suggestions come from the members of the team.');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Suggestions come from the members of the team.',
    );
    expect(screen.getByRole('textbox', { name: 'Link address' })).not.toHaveAttribute(
      'aria-invalid',
    );
  });
});
