import type { AuditEntry, AuditLogResponse } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerTexts } from '../../../lib/i18n';
import { adminEn } from '../../../lib/locales/admin';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { AuditTab } from './audit-tab';

beforeAll(() => registerTexts('admin', adminEn));
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

const LIST = '/api/admin/audit-log';
const EXPORT = '/api/admin/audit-log/export';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 'e1',
  occurredAt: '2026-03-01T10:00:00.000Z',
  actor: { id: 'u-ada', name: 'Ada Admin', email: 'ada@example.test' },
  action: 'person.role-changed',
  target: { type: 'person', id: 'u-bob', label: 'bob@example.test' },
  ip: '10.1.2.3',
  userAgent: 'Firefox on Linux',
  before: { role: 'member' },
  after: { role: 'admin' },
  details: null,
  ...over,
});

const failedSignIn = entry({
  id: 'e2',
  occurredAt: '2026-02-28T09:00:00.000Z',
  actor: { id: null, name: null, email: 'bob@example.test' },
  action: 'sign-in.failed',
  before: null,
  after: null,
  details: { method: 'password', reason: 'wrong password' },
});

function routes(page: AuditLogResponse): MockRoute[] {
  return [{ path: LIST, status: 200, body: page }];
}

function render(page: AuditLogResponse = { items: [entry({}), failedSignIn], nextCursor: null }) {
  setSessionToken('session-token');
  const mock = mockFetch(routes(page));
  renderWithQuery(<AuditTab />);
  return mock;
}

const lastListQuery = (requests: { url: string }[]) => {
  const url = requests.filter((r) => r.url.startsWith(LIST) && !r.url.startsWith(EXPORT)).at(-1)!;
  return new URL(url.url, 'http://x').searchParams;
};

describe('AuditTab', () => {
  it('shows each entry: when, who, the action in words, the target and the address', async () => {
    render();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Ada Admin <ada@example.test>');
    expect(rows[1]).toHaveTextContent('Changed a role');
    expect(rows[1]).toHaveTextContent('bob@example.test');
    expect(rows[1]).toHaveTextContent('10.1.2.3');
    expect(within(rows[1]!).getByRole('time')).toHaveAttribute(
      'datetime',
      '2026-03-01T10:00:00.000Z',
    );
    expect(rows[2]).toHaveTextContent('Sign-in failed');
  });

  it('opens the details of an entry with its before and after values', async () => {
    const user = userEvent.setup();
    render();
    const [toggle] = await screen.findAllByRole('button', { name: 'Details' });
    await user.click(toggle!);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const changes = screen.getAllByRole('table')[1]!;
    expect(within(changes).getByRole('columnheader', { name: 'Before' })).toBeInTheDocument();
    const role = within(changes).getByRole('row', { name: /role/ });
    expect(role).toHaveTextContent('member');
    expect(role).toHaveTextContent('admin');
    expect(screen.getByText('Firefox on Linux')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hide details' }));
    expect(screen.getAllByRole('table')).toHaveLength(1);
  });

  it('asks the server again for each filter: words, action group, dates, person', async () => {
    const user = userEvent.setup();
    const { requests } = render();
    await screen.findByRole('table');
    expect(requests[0]!.headers.Authorization).toBe('Bearer session-token');
    expect(lastListQuery(requests).get('limit')).toBe('50');

    await user.selectOptions(screen.getByLabelText('Action'), 'People');
    await waitFor(() => expect(lastListQuery(requests).get('action')).toBe('person.'));

    await user.type(screen.getByLabelText('Search names and e-mails'), 'bob');
    await waitFor(() => expect(lastListQuery(requests).get('q')).toBe('bob'));

    await user.type(screen.getByLabelText('From'), '2026-02-01');
    await user.type(screen.getByLabelText('To'), '2026-02-28');
    await waitFor(() => {
      const query = lastListQuery(requests);
      expect(query.get('from')).toBe(new Date('2026-02-01T00:00:00').toISOString());
      // The end day is included: up to the next midnight.
      expect(query.get('to')).toBe(new Date('2026-03-01T00:00:00').toISOString());
    });

    await user.click(screen.getByRole('button', { name: 'Ada Admin <ada@example.test>' }));
    await waitFor(() => expect(lastListQuery(requests).get('person')).toBe('u-ada'));
    expect(screen.getByText(/Only Ada Admin/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show everyone' }));
    await waitFor(() => expect(lastListQuery(requests).get('person')).toBeNull());
  });

  it('loads the next page on "Load more", keeping the first', async () => {
    const user = userEvent.setup();
    const { requests, routes: table } = render({ items: [entry({})], nextCursor: 'next-1' });
    await screen.findByRole('table');
    table[0]!.body = { items: [failedSignIn], nextCursor: null };
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Sign-in failed')).toBeInTheDocument();
    expect(screen.getByText('Changed a role')).toBeInTheDocument();
    expect(lastListQuery(requests).get('cursor')).toBe('next-1');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says so when no entry matches', async () => {
    render({ items: [], nextCursor: null });
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
  });

  it('offers to retry a failed load', async () => {
    setSessionToken('session-token');
    const user = userEvent.setup();
    const { routes: table } = mockFetch([{ path: LIST, status: 500, body: { message: 'down' } }]);
    renderWithQuery(<AuditTab />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This could not be loaded.');
    table[0]!.status = 200;
    table[0]!.body = { items: [entry({})], nextCursor: null };
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Changed a role')).toBeInTheDocument();
  });

  it('exports the CSV of the same filters with the bearer token, as a download', async () => {
    const user = userEvent.setup();
    const { requests, routes: table } = render();
    table.push({
      path: EXPORT,
      status: 200,
      body: 'occurred_at,action\n',
      headers: { 'Content-Disposition': 'attachment; filename="audit-log-2026-03-01.csv"' },
    });
    const createObjectURL = vi.fn(() => 'blob:audit');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });

    await screen.findByRole('table');
    await user.selectOptions(screen.getByLabelText('Action'), 'Sign-ins');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    const exported = requests.find((r) => r.url.startsWith(EXPORT))!;
    expect(exported.headers.Authorization).toBe('Bearer session-token');
    const query = new URL(exported.url, 'http://x').searchParams;
    expect(query.get('action')).toBe('sign-in.');
    expect(query.get('limit')).toBeNull();
    expect(clicked[0]!.download).toBe('audit-log-2026-03-01.csv');
    expect(clicked[0]!.href).toBe('blob:audit');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    click.mockRestore();
  });

  it('says so when the export fails', async () => {
    const user = userEvent.setup();
    const { routes: table } = render();
    table.push({ path: EXPORT, status: 500, body: { message: 'down' } });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The export could not be made.');
  });

  it('says when an administrator acted in a team they are not in', async () => {
    render({
      items: [
        entry({
          id: 'e3',
          action: 'content.link-created',
          target: { type: 'link', id: 'l1', label: 'Handbook' },
          details: { space: 'team', asAdministrator: true },
        }),
        entry({
          id: 'e4',
          actor: { id: 'u-ivy', name: 'Ivy Editor', email: 'ivy@example.test' },
          action: 'content.link-created',
          target: { type: 'link', id: 'l2', label: 'Runbook' },
          details: { space: 'team' },
        }),
      ],
      nextCursor: null,
    });
    const byAdmin = await screen.findByRole('row', { name: /Handbook/ });
    expect(byAdmin).toHaveTextContent('Ada Admin <ada@example.test> (as administrator)');
    expect(screen.getByRole('row', { name: /Runbook/ })).not.toHaveTextContent('as administrator');
  });
});
