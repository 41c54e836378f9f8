import type { PeopleImportPreview } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerTexts } from '../../../lib/i18n';
import { adminEn } from '../../../lib/locales/admin';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { PeopleTab } from './people-tab';

beforeAll(() => registerTexts('admin', adminEn));
afterEach(() => clearSession());

const CSV = 'name,email,teams\nIvy,ivy@example.com,Platform\nBad,nope,\n';
const plan = (over: Partial<PeopleImportPreview> = {}): PeopleImportPreview => ({
  create: 1,
  change: 0,
  unchanged: 0,
  refused: [{ row: 3, email: 'nope', reason: 'This is not an e-mail address.' }],
  rows: [
    {
      row: 2,
      action: 'create',
      name: 'Ivy',
      email: 'ivy@example.com',
      role: 'member',
      teamsAdded: ['Platform'],
      changes: [],
    },
  ],
  mailEnabled: true,
  changesRoles: false,
  ...over,
});

function open(routes: MockRoute[]) {
  setSessionToken('session-token');
  const mock = mockFetch([
    ...routes,
    { path: '/api/admin/people', status: 200, body: { items: [], nextCursor: null } },
  ]);
  const user = userEvent.setup();
  renderWithQuery(<PeopleTab />);
  return { ...mock, user };
}

const file = (text: string | Uint8Array<ArrayBuffer>, name = 'people.csv') =>
  new File([text], name, { type: 'text/csv' });

describe('importing people from a CSV file', () => {
  it('previews the file, shows refusals with their rows, and imports with invitations', async () => {
    const { user, requests } = open([
      { method: 'POST', path: '/api/admin/people/import/preview', status: 200, body: plan() },
      {
        method: 'POST',
        path: '/api/admin/people/import',
        status: 200,
        body: {
          created: 1,
          changed: 0,
          unchanged: 0,
          refused: plan().refused,
          invitationsMailed: 1,
        },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Import from CSV…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import people from a CSV file' });
    await user.upload(within(dialog).getByLabelText('CSV file'), file(CSV));
    expect(await within(dialog).findByText('1 person to create')).toBeInTheDocument();
    expect(within(dialog).getByText('1 row refused')).toBeInTheDocument();
    const refusals = within(dialog).getByRole('table', { name: 'Refused rows' });
    expect(within(refusals).getByText('This is not an e-mail address.')).toBeInTheDocument();
    expect(within(refusals).getByText('3')).toBeInTheDocument();
    const first = within(dialog).getByRole('table', { name: 'First rows' });
    expect(within(first).getByText('Platform')).toBeInTheDocument();
    expect(requests.find((r) => r.url.endsWith('/import/preview'))?.body).toEqual({ csv: CSV });
    expect(
      within(dialog).getByRole('checkbox', { name: 'Send invitations by e-mail' }),
    ).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Import 1 person' }));
    expect(
      await within(dialog).findByText(
        'Imported: 1 created, 0 changed, 0 already so, 1 refused. 1 invitation mailed.',
      ),
    ).toBeInTheDocument();
    expect(requests.find((r) => r.url.endsWith('/people/import'))?.body).toEqual({
      csv: CSV,
      sendInvitations: true,
    });
  });

  it('says when mail is not set up, and sends no invitations', async () => {
    const { user, requests } = open([
      {
        method: 'POST',
        path: '/api/admin/people/import/preview',
        status: 200,
        body: plan({ mailEnabled: false, refused: [] }),
      },
      {
        method: 'POST',
        path: '/api/admin/people/import',
        status: 200,
        body: { created: 1, changed: 0, unchanged: 0, refused: [], invitationsMailed: 0 },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Import from CSV…' }));
    const dialog = await screen.findByRole('dialog');
    await user.upload(within(dialog).getByLabelText('CSV file'), file(CSV));
    expect(await within(dialog).findByText(/Mail is not set up/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Import 1 person' }));
    await waitFor(() =>
      expect(requests.find((r) => r.url.endsWith('/people/import'))?.body).toEqual({
        csv: CSV,
        sendInvitations: false,
      }),
    );
  });

  it('refuses a file that is not UTF-8 without asking the server, and shows the server’s 400', async () => {
    const { user, requests } = open([
      {
        method: 'POST',
        path: '/api/admin/people/import/preview',
        status: 400,
        body: {
          statusCode: 400,
          code: 'VALIDATION_ERROR',
          error: 'Bad Request',
          message:
            'The file has no "email" column: its first row must name the columns (name, email, role, teams).',
        },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Import from CSV…' }));
    const dialog = await screen.findByRole('dialog');
    await user.upload(
      within(dialog).getByLabelText('CSV file'),
      file(new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe, 0x41])),
    );
    expect(await within(dialog).findByText(/This file is not UTF-8 text/)).toBeInTheDocument();
    expect(requests.some((r) => r.url.includes('/import'))).toBe(false);
    await user.upload(within(dialog).getByLabelText('CSV file'), file('name,mail\nA,a@b'));
    expect(await within(dialog).findByText(/The file has no "email" column/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /^Import \d/ })).toBeNull();
  });
});
