import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADD_LOADING_RESET_MS } from '../../../lib/constants';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { AddPanel, type AddPanelProps } from './add-panel';

afterEach(() => {
  vi.useRealTimers();
});

const ADD_LINK = { method: 'POST', path: '/api/consumer/collections/my/links' };
const ADD_COLLECTION = { method: 'POST', path: '/api/consumer/collections/' };

/** The add calls the server answers with `status`, and what the panel sent. */
function stubAdd(status: number) {
  const { requests } = mockFetch([
    { ...ADD_LINK, status, body: {} },
    { ...ADD_COLLECTION, status, body: {} },
  ]);
  return () => requests.filter((request) => request.method === 'POST');
}

function setup(
  props: { panelId?: string; parentPanelId?: string } & Pick<
    AddPanelProps,
    'variant' | 'targetName'
  > = {},
) {
  const added = stubAdd(204);
  const onClose = vi.fn();
  const user = userEvent.setup();
  const view = renderWithQuery(
    <AddPanel panelId="my" parentPanelId="my" onClose={onClose} {...props} />,
  );
  return { user, added, onClose, view };
}

const heading = () => screen.getByRole('heading', { level: 2 });

describe('AddPanel', () => {
  it('starts with the choice, then shows the link form with its header and prompt', async () => {
    const { user } = setup();
    expect(heading()).toHaveTextContent('Add');
    expect(screen.getByText('What do you want to add')).toBeInTheDocument();
    expect(screen.getByText('Select the type to Add')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New Link' }));
    expect(heading()).toHaveTextContent('Add link');
    expect(
      screen.getByText('Enter the link address you would like to add to this team.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Link address' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Link name' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Link description' })).toBeInTheDocument();
  });

  it('shows the collection form on the top-level panel, and back returns to the choice', async () => {
    const { user, onClose } = setup();
    await user.click(screen.getByRole('button', { name: 'New Collection' }));
    expect(heading()).toHaveTextContent('Add collection');
    expect(screen.getByText('Enter a name for your collection')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Description' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'New Link' })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    // On step 0 the back arrow closes the panel.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows only the link form when the panel id differs from its parent panel id', async () => {
    const { user, onClose } = setup({
      panelId: 'nested',
      parentPanelId: 'my',
      variant: 'personal-collection',
      targetName: 'Projects',
    });
    expect(heading()).toHaveTextContent('Add link');
    expect(screen.getByText('In Projects')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Collection' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Name' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('sends the link fields as entered to the target panel id and closes on success', async () => {
    const { user, added, onClose } = setup();
    await user.click(screen.getByRole('button', { name: 'New Link' }));
    await user.type(screen.getByRole('textbox', { name: 'Link address' }), 'intranet/wiki');
    await user.type(screen.getByRole('textbox', { name: 'Link name' }), ' Wiki ');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(added()).toEqual([
      expect.objectContaining({
        url: ADD_LINK.path,
        body: { url: 'intranet/wiki', name: ' Wiki ', description: '' },
      }),
    ]);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('sends a collection with name and description', async () => {
    const { user, added, onClose } = setup();
    await user.click(screen.getByRole('button', { name: 'New Collection' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Trips');
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Travel');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(added()).toEqual([
      expect.objectContaining({
        url: ADD_COLLECTION.path,
        body: { name: 'Trips', description: 'Travel', parentId: 'my' },
      }),
    ]);
    expect(onClose).toHaveBeenCalled();
  });

  it('stays open with a polite message on failure; loading clears after 2000 ms', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const added = stubAdd(400);
    const onClose = vi.fn();
    renderWithQuery(<AddPanel panelId="my" parentPanelId="my" onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'New Link' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add' })));
    // The call's failure reaches the panel on the query client's next tick.
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(added()).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Sorry, that did not work. Please try again.',
    );
    const button = screen.getByRole('button', { name: 'Adding…' });
    expect(button).toBeDisabled();
    act(() => vi.advanceTimersByTime(ADD_LOADING_RESET_MS - 1));
    expect(screen.getByRole('button', { name: 'Adding…' })).toBeDisabled();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button', { name: 'Add' })).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('keeps the loading state for 2000 ms even when the call is slow', async () => {
    vi.useFakeTimers();
    let resolve: (ok: boolean) => void = () => {};
    const answer = new Promise<boolean>((r) => (resolve = r));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: (await answer) ? 204 : 400 })),
    );
    const onClose = vi.fn();
    renderWithQuery(<AddPanel panelId="my" parentPanelId="my" onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'New Link' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('button', { name: 'Adding…' })).toBeDisabled();
    act(() => vi.advanceTimersByTime(ADD_LOADING_RESET_MS));
    // Cleared regardless of the result, which has not arrived yet.
    expect(screen.getByRole('button', { name: 'Add' })).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => resolve(true));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('goes back to step 0 when the close handler changes', async () => {
    const { user, view } = setup();
    await user.click(screen.getByRole('button', { name: 'New Collection' }));
    expect(heading()).toHaveTextContent('Add collection');
    view.rerender(<AddPanel panelId="my" parentPanelId="my" onClose={vi.fn()} />);
    expect(heading()).toHaveTextContent('Add');
    expect(screen.getByRole('button', { name: 'New Link' })).toBeInTheDocument();
  });
});

describe('AddPanel for a space', () => {
  function renderForSpace(status: number, body: unknown = {}) {
    const { requests } = mockFetch([{ ...ADD_COLLECTION, status, body }]);
    const onClose = vi.fn();
    renderWithQuery(<AddPanel spaceId="team-1" targetName="Engineering" onClose={onClose} />);
    return { onClose, sent: () => requests.filter((request) => request.method === 'POST') };
  }

  it('shows only the collection form, naming the space; back closes', async () => {
    const { onClose } = renderForSpace(204);
    expect(heading()).toHaveTextContent('Add collection');
    expect(screen.getByText('In Engineering')).toBeInTheDocument();
    expect(screen.getByText('Enter a name for your collection')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Description' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Link address' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('sends the space id and no parentId, and closes on success', async () => {
    const { onClose, sent } = renderForSpace(204);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Runbooks');
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'On call');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(sent()).toEqual([
      expect.objectContaining({
        url: ADD_COLLECTION.path,
        body: { name: 'Runbooks', description: 'On call', spaceId: 'team-1' },
      }),
    ]);
    expect(sent()[0]!.body).not.toHaveProperty('parentId');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("shows the server's message on failure and stays open", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const message = 'A collection with this name already exists in this space.';
    const { onClose, sent } = renderForSpace(409, { message });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Tools');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(sent()).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Tools');
  });

  it('shows a refused name under the Name field, in the words of the form', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderForSpace(400, { message: 'body.name must NOT have more than 200 characters' });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Tools');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription('Name must be at most 200 characters long.');
    expect(name).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Description' })).not.toHaveAttribute(
      'aria-invalid',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    [500, 'internal detail'],
    [404, 'Collection team-1 was not found'],
  ])('keeps the polite default for a %i, whose text is not for people', async (status, message) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderForSpace(status, { message });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Tools');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, that did not work. Please try again.',
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent(message);
    expect(screen.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-invalid');
  });

  it('says that the change waits for the network when there is none, keeping the name typed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const onClose = vi.fn();
    renderWithQuery(<AddPanel spaceId="team-1" targetName="Engineering" onClose={onClose} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Tools');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You are offline, so this change was not made. What you entered is still here: try again once you are back online.',
    );
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Tools');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe("AddPanel: the server's message about a link", () => {
  function renderLinkForm(status: number, message: string) {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { requests } = mockFetch([{ ...ADD_LINK, status, body: { message } }]);
    const onClose = vi.fn();
    renderWithQuery(
      <AddPanel
        panelId="my"
        parentPanelId="other"
        variant="personal-collection"
        onClose={onClose}
      />,
    );
    return { onClose, sent: () => requests.filter((request) => request.method === 'POST') };
  }

  it('shows a refused address under the Link address field, which takes the focus', async () => {
    const { onClose, sent } = renderLinkForm(
      400,
      'body.url must be an http, https or mailto address',
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Link address' }), 'javascript:alert(1)');
    await user.type(screen.getByRole('textbox', { name: 'Link name' }), 'Nope');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const address = screen.getByRole('textbox', { name: 'Link address' });
    await waitFor(() => expect(address).toHaveAttribute('aria-invalid', 'true'));
    expect(address).toHaveAccessibleDescription(
      'Link address must be an http, https or mailto address.',
    );
    expect(address).toHaveFocus();
    expect(address).toHaveValue('javascript:alert(1)');
    expect(screen.getByRole('textbox', { name: 'Link name' })).not.toHaveAttribute('aria-invalid');
    // Said once, where it applies; no second copy beside the button.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(sent()).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows a refused name under the Link name field', async () => {
    renderLinkForm(
      400,
      'body.name must not be blank: spaces and invisible characters alone are not a name',
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Link address' }), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const name = screen.getByRole('textbox', { name: 'Link name' });
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(
      'Link name must not be blank: spaces and invisible characters alone are not a name.',
    );
    expect(screen.getByRole('textbox', { name: 'Link address' })).not.toHaveAttribute(
      'aria-invalid',
    );
  });

  it.each([
    [403, 'Only the person who added this link, or who owns the collection, can.'],
    [409, 'Collections nest at most 8 levels below My Space.'],
  ])('shows a %i refusal that names no field beside the button', async (status, message) => {
    renderLinkForm(status, message);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Link address' }), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('textbox', { name: 'Link address' })).not.toHaveAttribute(
      'aria-invalid',
    );
  });

  it('clears the message when the person goes back to the choice', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([{ ...ADD_LINK, status: 400, body: { message: 'body.url must name a host' } }]);
    renderWithQuery(<AddPanel panelId="my" parentPanelId="my" onClose={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New Link' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Link address must name a host.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'New Link' }));
    expect(screen.queryByText('Link address must name a host.')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Link address' })).not.toHaveAttribute(
      'aria-invalid',
    );
  });
});

describe('AddPanel with a link to offer (a page sent by #add, decision 0066)', () => {
  const offered = {
    url: 'https://handbook.example.com/onboarding',
    name: 'Onboarding handbook',
    description: '',
  };

  it('opens on the link form filled in, and adds nothing until Add is pressed', async () => {
    const added = stubAdd(204);
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithQuery(
      <AddPanel panelId="my" parentPanelId="my" initialLink={offered} onClose={onClose} />,
    );
    expect(heading()).toHaveTextContent('Add link');
    expect(screen.getByRole('textbox', { name: 'Link address' })).toHaveValue(offered.url);
    expect(screen.getByRole('textbox', { name: 'Link name' })).toHaveValue(offered.name);
    expect(added()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(added()).toEqual([expect.objectContaining({ url: ADD_LINK.path, body: offered })]);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Back without adding', async () => {
    const added = stubAdd(204);
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithQuery(
      <AddPanel panelId="my" parentPanelId="my" initialLink={offered} onClose={onClose} />,
    );
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(added()).toEqual([]);
  });

  it('refuses an unsafe address with the panel’s usual message, under the address', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { requests } = mockFetch([
      {
        ...ADD_LINK,
        status: 400,
        body: { message: 'body.url must be an http, https or mailto address' },
      },
    ]);
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithQuery(
      <AddPanel
        panelId="my"
        parentPanelId="my"
        initialLink={{ url: 'javascript:alert(document.cookie)', name: 'Steal', description: '' }}
        onClose={onClose}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const address = screen.getByRole('textbox', { name: 'Link address' });
    await waitFor(() => expect(address).toHaveAttribute('aria-invalid', 'true'));
    expect(address).toHaveAccessibleDescription(
      'Link address must be an http, https or mailto address.',
    );
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('starts over with a new link offered while it is open', () => {
    const onClose = vi.fn();
    const { rerender } = renderWithQuery(
      <AddPanel panelId="my" parentPanelId="my" initialLink={offered} onClose={onClose} />,
    );
    rerender(
      <AddPanel
        panelId="my"
        parentPanelId="my"
        initialLink={{ url: 'https://other.example.com/', name: 'Other', description: '' }}
        onClose={onClose}
      />,
    );
    expect(screen.getByRole('textbox', { name: 'Link address' })).toHaveValue(
      'https://other.example.com/',
    );
  });
});
