import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportScope } from '../../../lib/menu/bookmark-scope';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { BookmarkExportDialog } from './export-dialog';

const EXPORT = '/api/consumer/bookmarks/export';

afterEach(() => clearSession());

/** Catches the download: the object address made, and the link the browser would follow. */
function catchDownloads() {
  const createObjectURL = vi.fn(() => 'blob:bookmarks');
  const revokeObjectURL = vi.fn();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
  const clicked: HTMLAnchorElement[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this);
  });
  return { clicked, createObjectURL };
}

function start(scope: ExportScope, routes: MockRoute[]) {
  setSessionToken('session-token');
  const mock = mockFetch(routes);
  const onClose = vi.fn();
  const user = userEvent.setup();
  renderWithQuery(<BookmarkExportDialog scope={scope} onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: `Export “${scope.name}”` });
  return { ...mock, onClose, user, dialog };
}

const formats = (dialog: HTMLElement) =>
  within(within(dialog).getByLabelText('Format'))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('exporting bookmarks', () => {
  it('downloads a collection in the format chosen, under the server’s file name', async () => {
    const { clicked } = catchDownloads();
    const { dialog, user, requests, onClose } = start(
      { query: { collectionId: 'c1' }, name: 'Projects', managed: false },
      [
        {
          path: EXPORT,
          status: 200,
          body: 'url,name\n',
          headers: {
            'Content-Disposition': `attachment; filename="projects.csv"; filename*=UTF-8''Proj%C3%A9cts.csv`,
          },
        },
      ],
    );
    expect(within(dialog).getByLabelText('Format')).toHaveFocus();
    // A personal collection cannot become a policy.
    expect(formats(dialog)).toEqual(['Browser bookmark file (HTML)', 'Signpost JSON', 'CSV']);
    await user.selectOptions(within(dialog).getByLabelText('Format'), 'CSV');
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const request = requests.find((r) => r.url.startsWith(EXPORT))!;
    expect(request.url).toBe(`${EXPORT}?format=csv&collectionId=c1`);
    expect(request.headers.Authorization).toBe('Bearer session-token');
    expect(clicked[0]!.download).toBe('Projécts.csv');
    expect(clicked[0]!.href).toBe('blob:bookmarks');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('offers a managed-bookmarks policy for a team space, and asks for the whole space', async () => {
    const { clicked } = catchDownloads();
    const { dialog, user, requests } = start(
      { query: { space: 'team-1' }, name: 'Engineering', managed: true },
      [
        {
          path: EXPORT,
          status: 200,
          body: '[]',
          headers: { 'Content-Disposition': 'attachment; filename="engineering-policy.json"' },
        },
      ],
    );
    expect(formats(dialog)).toContain('Managed bookmarks policy (JSON)');
    await user.selectOptions(
      within(dialog).getByLabelText('Format'),
      'Managed bookmarks policy (JSON)',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(requests[0]!.url).toBe(`${EXPORT}?format=managed&space=team-1`);
    expect(clicked[0]!.download).toBe('engineering-policy.json');
  });

  it('names a file itself when the server gives no name', async () => {
    const { clicked } = catchDownloads();
    const { dialog, user } = start(
      { query: { space: 'personal' }, name: 'My Space', managed: false },
      [{ path: EXPORT, status: 200, body: '<!DOCTYPE NETSCAPE-Bookmark-file-1>' }],
    );
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('bookmark-export.html');
  });

  it('stays open with a message when the export fails', async () => {
    const { clicked } = catchDownloads();
    const { dialog, user, onClose } = start(
      { query: { collectionId: 'c1' }, name: 'Projects', managed: false },
      [{ path: EXPORT, status: 500, body: { message: 'down' } }],
    );
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The export could not be made. Please try again.',
    );
    expect(clicked).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });
});
