import { UNDO_HEADERS } from '@signpost/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UNDO_NOTICE_MS } from '../../../lib/constants';
import { menuQueryKey } from '../../../lib/menu/get-menu';
import { deleteCollection, deleteLink, leaveShare } from '../../../lib/menu/menu-writes';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { dismissUndo, getPendingUndo, offerUndo } from '../../../lib/undo/pending-undo';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { UndoNotice } from './undo-notice';

const UNDO_ID = 'u'.repeat(21);
const TOKEN = 'token-of-the-session';

/** A deletion's 204, naming its undo. */
const deleted = (path: string) => ({
  method: 'DELETE',
  path,
  status: 204,
  headers: {
    [UNDO_HEADERS.id]: UNDO_ID,
    [UNDO_HEADERS.expires]: new Date(Date.now() + 60_000).toISOString(),
  },
});

const notice = () => screen.getByRole('status');

beforeEach(() => {
  setSessionToken(TOKEN);
});

afterEach(() => {
  dismissUndo();
  window.sessionStorage.clear();
  clearSession();
});

describe('UndoNotice', () => {
  it('is an empty polite status until something is deleted', () => {
    renderWithQuery(<UndoNotice />);
    expect(notice()).toHaveAttribute('aria-live', 'polite');
    expect(notice()).toBeEmptyDOMElement();
  });

  it('says what was deleted, with Undo, and leaves the focus where it was', async () => {
    mockFetch([deleted('/api/consumer/links/l1')]);
    renderWithQuery(
      <>
        <button type="button">Elsewhere</button>
        <UndoNotice />
      </>,
    );
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    elsewhere.focus();
    await act(() => deleteLink('l1', 'Wiki'));
    expect(await within(notice()).findByText('“Wiki” deleted')).toBeInTheDocument();
    expect(within(notice()).getByRole('button', { name: 'Undo' })).toBeEnabled();
    expect(document.activeElement).toBe(elsewhere);
  });

  it.each([
    [
      'a collection',
      () => deleteCollection('c1', 'Tools'),
      '/api/consumer/collections/c1/',
      '“Tools” deleted, with everything in it',
    ],
    [
      'leaving a share',
      () => leaveShare('s1', 'me', 'Team trip'),
      '/api/consumer/collection-shares/s1/members/me',
      'You left “Team trip”',
    ],
  ])('names %s', async (_what, remove, path, text) => {
    mockFetch([deleted(path)]);
    renderWithQuery(<UndoNotice />);
    await act(remove);
    expect(await within(notice()).findByText(text)).toBeInTheDocument();
  });

  it('undoes on the server, reloads the menu and says it is back', async () => {
    const { requests } = mockFetch([
      deleted('/api/consumer/links/l1'),
      { method: 'POST', path: `/api/consumer/undo/${UNDO_ID}`, status: 204 },
    ]);
    const { client } = renderWithQuery(<UndoNotice />);
    client.setQueryData(menuQueryKey(TOKEN), { stale: true });
    await act(() => deleteLink('l1', 'Wiki'));
    const user = userEvent.setup();
    await user.click(await within(notice()).findByRole('button', { name: 'Undo' }));
    expect(await within(notice()).findByText('“Wiki” is back.')).toBeInTheDocument();
    expect(requests.map((r) => `${r.method} ${r.url}`)).toContain(
      `POST /api/consumer/undo/${UNDO_ID}`,
    );
    expect(client.getQueryState(menuQueryKey(TOKEN))?.isInvalidated).toBe(true);
    expect(within(notice()).queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
    // The focus was on Undo, which went: it stays in the notice.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(notice()).getByRole('button', { name: 'Dismiss' }),
      ),
    );
    expect(window.sessionStorage.getItem('signpost:undo')).toBeNull();
  });

  it("shows the server's message when it is too late", async () => {
    mockFetch([
      deleted('/api/consumer/links/l1'),
      {
        method: 'POST',
        path: `/api/consumer/undo/${UNDO_ID}`,
        status: 410,
        body: { code: 'GONE', message: 'This can no longer be undone.' },
      },
    ]);
    renderWithQuery(<UndoNotice />);
    await act(() => deleteLink('l1', 'Wiki'));
    await userEvent.click(await within(notice()).findByRole('button', { name: 'Undo' }));
    expect(await within(notice()).findByText('This can no longer be undone.')).toBeInTheDocument();
  });

  it('is dismissed by Escape and by its button', async () => {
    renderWithQuery(<UndoNotice />);
    act(() => offerUndo({ id: UNDO_ID, kind: 'link', label: 'Wiki' }));
    await within(notice()).findByText('“Wiki” deleted');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(notice()).toBeEmptyDOMElement());
    expect(getPendingUndo()).toBeNull();

    act(() => offerUndo({ id: UNDO_ID, kind: 'favorite', label: 'Docs' }));
    await userEvent.click(await within(notice()).findByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(notice()).toBeEmptyDOMElement());
  });

  it('lets Escape close an open panel rather than the notice, unless the focus is in it', async () => {
    renderWithQuery(
      <>
        <dialog open>
          <button type="button">In the panel</button>
        </dialog>
        <UndoNotice />
      </>,
    );
    act(() => offerUndo({ id: UNDO_ID, kind: 'link', label: 'Wiki' }));
    const dialog = document.querySelector('dialog')!;
    // Shown inside the panel, since a modal panel makes the rest of the page inert.
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent('Wiki'));
    within(dialog).getByRole('button', { name: 'In the panel' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(getPendingUndo()).not.toBeNull();
    within(dialog).getByRole('button', { name: 'Undo' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(getPendingUndo()).toBeNull();
  });

  it('comes back after a reload for the time left, and not once that time passed', async () => {
    act(() => offerUndo({ id: UNDO_ID, kind: 'link', label: 'Wiki' }));
    const stored = JSON.parse(window.sessionStorage.getItem('signpost:undo')!);
    expect(stored).toMatchObject({ id: UNDO_ID, kind: 'link', label: 'Wiki' });
    expect(stored.until - Date.now()).toBeGreaterThan(UNDO_NOTICE_MS - 1000);
    const { unmount } = renderWithQuery(<UndoNotice />);
    await within(notice()).findByText('“Wiki” deleted');
    unmount();

    // A reload 9.7 s after the deletion: the notice shows for the 0.3 s left, then goes.
    window.sessionStorage.setItem(
      'signpost:undo',
      JSON.stringify({ ...stored, until: Date.now() + 300 }),
    );
    renderWithQuery(<UndoNotice />);
    await within(notice()).findByText('“Wiki” deleted');
    await waitFor(() => expect(notice()).toBeEmptyDOMElement(), { timeout: 2000 });
    expect(window.sessionStorage.getItem('signpost:undo')).toBeNull();

    // A reload after the time: nothing.
    window.sessionStorage.setItem(
      'signpost:undo',
      JSON.stringify({ ...stored, id: 'v'.repeat(21), until: Date.now() - 1 }),
    );
    expect(getPendingUndo()).toBeNull();
  });

  it('belongs to the session that deleted', () => {
    act(() => offerUndo({ id: UNDO_ID, kind: 'link', label: 'Wiki' }));
    expect(getPendingUndo()?.id).toBe(UNDO_ID);
    act(() => setSessionToken('someone-else'));
    expect(getPendingUndo()).toBeNull();
  });

  it('says how many links an import brought and where, undoes it, and says so after a reload', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: `/api/consumer/undo/${UNDO_ID}`, status: 204 },
    ]);
    const user = userEvent.setup();
    act(() => offerUndo({ id: UNDO_ID, kind: 'imported', label: 'Bookmarks', count: 120 }));
    // Kept with its count, so that a reload says the same.
    expect(JSON.parse(window.sessionStorage.getItem('signpost:undo')!)).toMatchObject({
      kind: 'imported',
      count: 120,
    });
    renderWithQuery(<UndoNotice />);
    expect(
      await within(notice()).findByText('Imported 120 links into Bookmarks.'),
    ).toBeInTheDocument();
    await user.click(within(notice()).getByRole('button', { name: 'Undo' }));
    expect(await within(notice()).findByText('Undone: the import is gone.')).toBeInTheDocument();
    expect(requests.map((request) => `${request.method} ${request.url}`)).toContain(
      `POST /api/consumer/undo/${UNDO_ID}`,
    );
  });

  it('counts a single imported link in the singular', async () => {
    act(() => offerUndo({ id: UNDO_ID, kind: 'imported', label: 'Reading', count: 1 }));
    renderWithQuery(<UndoNotice />);
    expect(await within(notice()).findByText('Imported 1 link into Reading.')).toBeInTheDocument();
  });
});
