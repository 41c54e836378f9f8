import type {
  BookmarkImportPreview,
  BookmarkImportResult,
  BookmarkImportTarget,
} from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { menuQueryKey } from '../../../lib/menu/get-menu';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { dismissUndo, getPendingUndo } from '../../../lib/undo/pending-undo';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { BookmarkImportDialog } from './import-dialog';

const TOKEN = 'session-token';
const PREVIEW = '/api/consumer/bookmarks/import/preview';
const IMPORT = '/api/consumer/bookmarks/import';
const UNDO_ID = 'u'.repeat(21);

const HTML = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p><DT><H3>Work</H3><DL><p><DT><A HREF="https://wiki.example">Wiki</A></DL><p></DL><p>`;

const preview = (over: Partial<BookmarkImportPreview> = {}): BookmarkImportPreview => ({
  format: 'netscape',
  targetName: 'Bookmarks',
  links: 120,
  folders: 8,
  depth: 2,
  topFolders: [
    { name: 'Work', links: 80, folders: 5 },
    { name: 'Reading', links: 1, folders: 1 },
  ],
  duplicateCount: 3,
  duplicates: [
    {
      path: 'Work',
      name: 'Team wiki',
      url: 'https://wiki.example',
      existing: { id: 'l1', name: 'Wiki', collectionName: 'Engineering' },
    },
  ],
  refusedCount: 2,
  refused: [
    {
      path: 'Work > Old',
      name: 'Local script',
      url: 'javascript:alert(1)',
      reason: 'This address cannot be opened from the portal.',
    },
    {
      path: '',
      name: 'Printer',
      url: 'file:///printer',
      reason: 'Files on a computer are left out.',
    },
  ],
  notices: ['Folders deeper than 8 levels were flattened.'],
  ...over,
});

const result = (over: Partial<BookmarkImportResult> = {}): BookmarkImportResult => ({
  collectionId: 'new-collection',
  links: 120,
  folders: 8,
  skipped: 0,
  refusedCount: 2,
  refused: [],
  undo: { id: UNDO_ID, expiresAt: new Date(Date.now() + 60_000).toISOString() },
  ...over,
});

const bookmarkFile = (content: string | Uint8Array<ArrayBuffer> = HTML, name = 'bookmarks.html') =>
  new File([content], name, { type: 'text/html' });

/** The dialog as the portal shows it: gone once it closes. */
function Harness({ target, file }: { target: BookmarkImportTarget; file?: File }) {
  const [open, setOpen] = useState(true);
  return open ? (
    <BookmarkImportDialog
      target={target}
      placeName="Engineering"
      file={file}
      onClose={() => setOpen(false)}
    />
  ) : null;
}

function start(
  routes: MockRoute[],
  {
    target = { into: 'new' } as BookmarkImportTarget,
    file,
  }: { target?: BookmarkImportTarget; file?: File } = {},
) {
  const mock = mockFetch(routes);
  const user = userEvent.setup();
  const view = renderWithQuery(<Harness target={target} file={file} />);
  const dialog = screen.getByRole('dialog', { name: 'Import bookmarks' });
  const sent = (path: string) => mock.requests.filter((request) => request.url === path);
  return { ...mock, ...view, user, dialog, sent };
}

const fileField = (dialog: HTMLElement) => within(dialog).getByLabelText('Bookmark file');

beforeEach(() => setSessionToken(TOKEN));
afterEach(() => {
  dismissUndo();
  window.sessionStorage.clear();
  clearSession();
});

describe('importing bookmarks: the preview', () => {
  it('opens with the focus on the file field and says where the links go', () => {
    const { dialog } = start([]);
    expect(fileField(dialog)).toHaveFocus();
    expect(fileField(dialog)).toHaveAttribute('accept', '.html,.htm,.csv,.json');
    expect(
      within(dialog).getByText('They go into a new collection in My Space, named after the file.'),
    ).toBeInTheDocument();
  });

  it('sends the file as text with its name and target, and shows what it would do', async () => {
    const { dialog, user, sent } = start([
      { method: 'POST', path: PREVIEW, status: 200, body: preview() },
    ]);
    await user.upload(fileField(dialog), bookmarkFile());
    expect(
      await within(dialog).findByText('120 links and 8 folders, 2 levels deep'),
    ).toHaveAttribute('role', 'status');
    expect(sent(PREVIEW).map((request) => request.body)).toEqual([
      { file: HTML, fileName: 'bookmarks.html', target: { into: 'new' } },
    ]);
    expect(
      within(dialog).getByText('A new collection, “Bookmarks”, will hold them.'),
    ).toBeInTheDocument();
    // The top folders, with their counts.
    const top = within(dialog).getByRole('region', { name: 'Top folders' });
    expect(within(top).getByText('Work: 80 links, 5 folders')).toBeInTheDocument();
    expect(within(top).getByText('Reading: 1 link, 1 folder')).toBeInTheDocument();
    // The links already there, with the choice, Skip by default.
    const duplicates = within(dialog).getByRole('region', { name: '3 links are here already' });
    expect(within(duplicates).getByText('Team wiki')).toBeInTheDocument();
    expect(within(duplicates).getByText('already in “Engineering” as “Wiki”')).toBeInTheDocument();
    expect(within(duplicates).getByText('…and 2 more')).toBeInTheDocument();
    const choice = within(duplicates).getByRole('group', { name: 'Links already here' });
    expect(within(choice).getByRole('radio', { name: 'Skip them' })).toBeChecked();
    expect(within(choice).getByRole('radio', { name: 'Import them too' })).not.toBeChecked();
    // What is left out, each with its folder, name and reason.
    const refused = within(dialog).getByRole('table', { name: 'Not imported' });
    const rows = within(refused).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Work > Old',
      '(top)',
    ]);
    expect(within(rows[0]!).getByText('Local script')).toBeInTheDocument();
    expect(
      within(rows[0]!).getByText('This address cannot be opened from the portal.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('2 entries will not be imported')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Folders deeper than 8 levels were flattened.'),
    ).toBeInTheDocument();
    // Nothing is written before Import.
    expect(sent(IMPORT)).toEqual([]);
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeEnabled();
  });

  it('says one link and no folders plainly, and shows no empty parts', async () => {
    const { dialog, user } = start([
      {
        method: 'POST',
        path: PREVIEW,
        status: 200,
        body: preview({
          links: 1,
          folders: 0,
          depth: 0,
          topFolders: [],
          duplicateCount: 0,
          duplicates: [],
          refusedCount: 0,
          refused: [],
          notices: [],
        }),
      },
    ]);
    await user.upload(fileField(dialog), bookmarkFile('url\nhttps://a.example\n', 'links.csv'));
    expect(await within(dialog).findByText('1 link, without folders')).toBeInTheDocument();
    expect(within(dialog).queryByRole('radio')).toBeNull();
    expect(within(dialog).queryByRole('table')).toBeNull();
    expect(within(dialog).queryByRole('region', { name: 'Top folders' })).toBeNull();
  });

  it('announces the reading while the server looks at the file', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const { dialog, user } = start([
      { method: 'POST', path: PREVIEW, status: 200, body: preview(), held },
    ]);
    await user.upload(fileField(dialog), bookmarkFile());
    const status = await within(dialog).findByText('Reading the file…');
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    answer();
    expect(await within(dialog).findByText('120 links and 8 folders, 2 levels deep')).toBe(status);
  });

  it('reads a file dropped on the portal at once', async () => {
    const { dialog, sent } = start(
      [{ method: 'POST', path: PREVIEW, status: 200, body: preview() }],
      {
        file: bookmarkFile(HTML, 'export.html'),
      },
    );
    expect(await within(dialog).findByText('File: export.html')).toBeInTheDocument();
    await within(dialog).findByText('120 links and 8 folders, 2 levels deep');
    expect(sent(PREVIEW)[0]!.body).toEqual({
      file: HTML,
      fileName: 'export.html',
      target: { into: 'new' },
    });
  });
});

describe('importing bookmarks: the import', () => {
  it('imports the same file and target with the choice for duplicates, then offers the undo', async () => {
    const target: BookmarkImportTarget = { into: 'collection', collectionId: 'c'.repeat(21) };
    const { dialog, user, sent, client } = start(
      [
        { method: 'POST', path: PREVIEW, status: 200, body: preview() },
        { method: 'POST', path: IMPORT, status: 200, body: result() },
      ],
      { target },
    );
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    expect(within(dialog).getByText('They go into “Engineering”.')).toBeInTheDocument();
    await user.upload(fileField(dialog), bookmarkFile());
    await within(dialog).findByText('120 links and 8 folders, 2 levels deep');
    await user.click(within(dialog).getByRole('radio', { name: 'Import them too' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    // The dialog closes, and the undo notice is offered: what came in, and where.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(IMPORT).map((request) => request.body)).toEqual([
      { file: HTML, fileName: 'bookmarks.html', target, duplicates: 'keep' },
    ]);
    expect(sent(PREVIEW)[0]!.body).toEqual({ file: HTML, fileName: 'bookmarks.html', target });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: menuQueryKey(TOKEN) });
    expect(getPendingUndo()).toMatchObject({
      id: UNDO_ID,
      kind: 'imported',
      label: 'Bookmarks',
      count: 120,
    });
  });

  it('leaves the links already there out by default', async () => {
    const { dialog, user, sent } = start([
      { method: 'POST', path: PREVIEW, status: 200, body: preview() },
      { method: 'POST', path: IMPORT, status: 200, body: result({ links: 1, skipped: 3 }) },
    ]);
    await user.upload(fileField(dialog), bookmarkFile());
    await within(dialog).findByText('120 links and 8 folders, 2 levels deep');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(getPendingUndo()).toMatchObject({ count: 1 }));
    expect(sent(IMPORT)[0]!.body).toMatchObject({ duplicates: 'skip', target: { into: 'new' } });
  });

  it('announces the import while it runs, with Import disabled', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const { dialog, user } = start([
      { method: 'POST', path: PREVIEW, status: 200, body: preview() },
      { method: 'POST', path: IMPORT, status: 200, body: result(), held },
    ]);
    await user.upload(fileField(dialog), bookmarkFile());
    await within(dialog).findByText('120 links and 8 folders, 2 levels deep');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByText('Importing…')).toHaveAttribute('role', 'status');
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    answer();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the dialog open with the server’s message when the import is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog, user } = start([
      { method: 'POST', path: PREVIEW, status: 200, body: preview() },
      {
        method: 'POST',
        path: IMPORT,
        status: 403,
        body: { code: 'FORBIDDEN', message: 'You may not add links to this collection.' },
      },
    ]);
    await user.upload(fileField(dialog), bookmarkFile());
    await within(dialog).findByText('120 links and 8 folders, 2 levels deep');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'You may not add links to this collection.',
    );
    expect(screen.getByRole('dialog', { name: 'Import bookmarks' })).toBeInTheDocument();
  });
});

describe('importing bookmarks: files that are refused', () => {
  it('shows the server’s 400 as it is, and offers no import', async () => {
    const message =
      'This is not a bookmark file: it is neither a browser’s bookmark file, a CSV with a header, nor a known JSON export.';
    const { dialog, user, sent } = start([
      {
        method: 'POST',
        path: PREVIEW,
        status: 400,
        body: { code: 'NOT_A_BOOKMARK_FILE', message },
      },
    ]);
    await user.upload(fileField(dialog), bookmarkFile('hello', 'notes.json'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(sent(IMPORT)).toEqual([]);
  });

  it('refuses a file that is not UTF-8 without asking the server', async () => {
    const { dialog, user, requests } = start([]);
    await user.upload(
      fileField(dialog),
      bookmarkFile(new Uint8Array([0x3c, 0x44, 0x4c, 0x3e, 0xff, 0xfe, 0x41])),
    );
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This file is not UTF-8 text. Save it as UTF-8 and try again.',
    );
    expect(requests).toEqual([]);
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
  });

  it('refuses a file over 20 MB without reading it or asking the server', async () => {
    const { dialog, user, requests } = start([]);
    const large = bookmarkFile();
    Object.defineProperty(large, 'size', { value: Math.round(23.4 * 1024 * 1024) });
    const read = vi.spyOn(FileReader.prototype, 'readAsArrayBuffer');
    await user.upload(fileField(dialog), large);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The file is 23.4 MB; at most 20 MB can be imported.',
    );
    expect(read).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });

  it('forgets a refusal once a good file is chosen', async () => {
    const { dialog, user } = start([
      { method: 'POST', path: PREVIEW, status: 200, body: preview() },
    ]);
    await user.upload(fileField(dialog), bookmarkFile(new Uint8Array([0xff, 0xfe])));
    await within(dialog).findByText(/not UTF-8/);
    await user.upload(fileField(dialog), bookmarkFile());
    await within(dialog).findByText('120 links and 8 folders, 2 levels deep');
    expect(within(dialog).getByRole('alert')).toBeEmptyDOMElement();
  });
});
