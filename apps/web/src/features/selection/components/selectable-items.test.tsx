// Several items at once (decision 0075): choosing with boxes and shift-click, and what moving
// and deleting them together sends.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished } from 'vitest';
import { locateCollection } from '../../../lib/menu/locate-item';
import { processMenu } from '../../../lib/menu/process-menu';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { dismissUndo, getPendingUndo } from '../../../lib/undo/pending-undo';
import { RUN_LINK, RUNS } from '../../../test/can-fixture';
import { mockFetch } from '../../../test/fetch-mock';
import { makeLink, makeMenu } from '../../../test/menu-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { SelectableItems } from './selectable-items';

const spaces = processMenu(
  makeMenu({
    teamEditor: true,
    teamCan: RUNS,
    teamItems: [
      ...['One', 'Two', 'Three', 'Four'].map((name) =>
        makeLink({ id: name.toLowerCase(), name, can: RUN_LINK }),
      ),
      {
        type: 'collection',
        id: 'archive',
        name: 'Archive',
        description: '',
        color: null,
        can: RUNS,
        linkCan: RUN_LINK,
        items: [],
      },
    ],
  }),
).spaces;
const team = spaces.find((space) => space.type === 'team')!;
const top = team.collections[0]!;

function renderItems() {
  renderWithQuery(
    <SelectableItems spaces={spaces} collection={locateCollection(spaces, top.id)!.collection}>
      <p>the tiles</p>
    </SelectableItems>,
  );
}

const box = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` });

describe('choosing several items', () => {
  it('shows the tiles until Select, then a box per item; Done brings the tiles back', async () => {
    const user = userEvent.setup();
    renderItems();
    expect(screen.getByText('the tiles')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Select' }));
    expect(screen.queryByText('the tiles')).toBeNull();
    expect(screen.getAllByRole('checkbox', { name: /^Select (?!all)/ })).toHaveLength(5);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.getByText('the tiles')).toBeInTheDocument();
  });

  it('chooses everything between two boxes with a shift-click, and the keyboard toggles a box', async () => {
    const user = userEvent.setup();
    renderItems();
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(box('Two'));
    await user.keyboard('{Shift>}');
    await user.click(box('Four'));
    await user.keyboard('{/Shift}');
    expect(box('Two')).toBeChecked();
    expect(box('Three')).toBeChecked();
    expect(box('Four')).toBeChecked();
    expect(box('One')).not.toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('3 selected');
    box('One').focus();
    await user.keyboard(' ');
    expect(box('One')).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('4 selected');
  });

  it('moves the chosen items together into a collection offered for all of them', async () => {
    setSessionToken('token');
    onTestFinished(() => {
      dismissUndo();
      clearSession();
    });
    const { requests } = mockFetch([
      {
        method: 'POST',
        path: '/api/consumer/items/move',
        status: 204,
        headers: {
          'signpost-undo-id': 'm'.repeat(21),
          'signpost-undo-expires': '2099-01-01T00:00:00Z',
        },
      },
    ]);
    const user = userEvent.setup();
    renderItems();
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(box('One'));
    await user.click(box('Three'));
    await user.click(screen.getByRole('button', { name: 'Move to…' }));
    const dialog = screen.getByRole('dialog', { name: 'Move 2 items to' });
    await user.click(dialog.querySelector('button.move-to__target') as HTMLElement);
    await waitFor(() => expect(screen.getByText('the tiles')).toBeInTheDocument());
    expect(requests.find((request) => request.method === 'POST')!.body).toEqual({
      items: [
        { type: 'link', id: 'one' },
        { type: 'link', id: 'three' },
      ],
      collectionId: 'archive',
    });
    expect(getPendingUndo()).toMatchObject({ kind: 'movedSeveral', label: '2 items' });
  });

  it('deletes the chosen items together, and shows the server’s refusal when there is one', async () => {
    mockFetch([
      {
        method: 'POST',
        path: '/api/consumer/items/delete',
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Only the editors of this team can change it.' },
      },
    ]);
    const user = userEvent.setup();
    renderItems();
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByRole('status')).toHaveTextContent('5 selected');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only the editors of this team can change it.',
    );
    expect(box('One')).toBeChecked();
  });
});
