import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { SettingsPanel } from './settings-panel';

const EXPORT = '/api/consumer/bookmarks/export';

afterEach(() => clearSession());

/** The other sections' reads, answered so that they stay quiet. */
const QUIET: MockRoute[] = [
  { path: '/api/auth/tokens', status: 200, body: { items: [] } },
  { path: '/api/auth/sessions', status: 200, body: { items: [] } },
  {
    path: '/api/auth/second-factor',
    status: 200,
    body: { available: true, enabled: false, recoveryCodesLeft: 0 },
  },
  { path: '/api/consumer/suggestions', status: 200, body: { items: [] } },
];

function open(routes: MockRoute[], onImportBookmarks?: () => void) {
  setSessionToken('session-token');
  const mock = mockFetch([...routes, ...QUIET]);
  const user = userEvent.setup();
  renderWithQuery(<SettingsPanel onClose={() => {}} onImportBookmarks={onImportBookmarks} />);
  const section = screen.getByRole('region', { name: 'Bookmarks' });
  return { ...mock, user, section };
}

describe('settings: bookmarks', () => {
  it('opens the import of a bookmark file into My Space', async () => {
    const onImport = vi.fn();
    const { user, section } = open([], onImport);
    await user.click(within(section).getByRole('button', { name: 'Import bookmarks…' }));
    expect(onImport).toHaveBeenCalledTimes(1);
  });

  it('offers no import where none may be made', () => {
    const { section } = open([]);
    expect(within(section).queryByRole('button', { name: 'Import bookmarks…' })).toBeNull();
    expect(within(section).getByRole('button', { name: 'Export My Space' })).toBeInTheDocument();
  });

  it('exports My Space in the format chosen, as a download named by the server', async () => {
    const createObjectURL = vi.fn(() => 'blob:my-space');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    const { user, section, requests } = open([
      {
        path: EXPORT,
        status: 200,
        body: { format: 'signpost-bookmarks', version: 1, items: [] },
        headers: { 'Content-Disposition': 'attachment; filename="my-space-2026-03-01.json"' },
      },
    ]);
    const format = within(section).getByLabelText('Format');
    expect(
      within(format)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Browser bookmark file (HTML)', 'Signpost JSON', 'CSV']);
    await user.selectOptions(format, 'Signpost JSON');
    await user.click(within(section).getByRole('button', { name: 'Export My Space' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const request = requests.find((r) => r.url.startsWith(EXPORT))!;
    expect(request.url).toBe(`${EXPORT}?format=json&space=personal`);
    expect(request.headers.Authorization).toBe('Bearer session-token');
    expect(clicked[0]!.download).toBe('my-space-2026-03-01.json');
    expect(await within(section).findByText('The file is downloading.')).toHaveAttribute(
      'role',
      'status',
    );
  });

  it('says so when the export fails', async () => {
    const { user, section } = open([{ path: EXPORT, status: 500, body: { message: 'down' } }]);
    await user.click(within(section).getByRole('button', { name: 'Export My Space' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'The export could not be made. Please try again.',
    );
  });
});
