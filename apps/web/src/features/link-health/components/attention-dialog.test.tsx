import type { AttentionLink } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { attentionLink } from '../../../test/link-health-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { AttentionDialog } from './attention-dialog';
import { LinkHealthProvider } from './link-health-provider';

afterEach(() => clearSession());

const ATTENTION = '/api/consumer/links/attention';

const broken404 = attentionLink({
  linkId: 'wiki',
  name: 'Wiki',
  space: 'team',
  teamName: 'Engineering',
  collectionName: 'Tools',
});
const brokenDns = attentionLink({
  linkId: 'old-crm',
  name: 'Old CRM',
  status: null,
  failureKind: 'dns',
  collectionName: 'Sales',
});
const brokenTimeout = attentionLink({
  linkId: 'slow',
  name: 'Slow intranet',
  status: null,
  failureKind: 'timeout',
  space: 'organization',
  collectionName: 'HR',
});
const moved = attentionLink({
  linkId: 'docs',
  name: 'Docs',
  url: 'http://docs.example.com/',
  state: 'moved',
  movedTo: 'https://docs.example.com/',
  status: 301,
});
const sharedBroken = attentionLink({
  linkId: 'trip-map',
  name: 'Trip map',
  collectionName: 'Share trip',
  canChange: false,
});

async function open(items: AttentionLink[], extra: MockRoute[] = []) {
  setSessionToken('token');
  const mock = mockFetch([...extra, { path: ATTENTION, status: 200, body: { items } }]);
  renderWithQuery(
    <LinkHealthProvider menuVersion='"v1"' enabled>
      <AttentionDialog onClose={vi.fn()} />
    </LinkHealthProvider>,
  );
  const dialog = await screen.findByRole('dialog', { name: 'Links that need attention' });
  if (items.length > 0) await within(dialog).findByRole('heading', { name: items[0]!.name });
  return { ...mock, dialog, user: userEvent.setup() };
}

const item = (dialog: HTMLElement, name: string) => within(dialog).getByRole('listitem', { name });

describe('the "needs attention" dialog', () => {
  it('says what is wrong with a broken link in plain words: status, name, time', async () => {
    const { dialog } = await open([broken404, brokenDns, brokenTimeout]);
    expect(item(dialog, 'Wiki')).toHaveTextContent(
      'Broken since Nov 3: the site answers 404 Not Found.',
    );
    expect(item(dialog, 'Old CRM')).toHaveTextContent(
      "Broken since Nov 3: the site's name does not resolve.",
    );
    expect(item(dialog, 'Slow intranet')).toHaveTextContent(
      'Broken since Nov 3: the site did not answer in time.',
    );
  });

  it('says where each link is, space then collection', async () => {
    const { dialog } = await open([broken404, brokenTimeout]);
    expect(item(dialog, 'Wiki')).toHaveTextContent('Engineering › Tools');
    expect(item(dialog, 'Slow intranet')).toHaveTextContent('Organization › HR');
  });

  it('lists the links under headings, in a list, and opens each in a new tab', async () => {
    const { dialog } = await open([broken404, moved]);
    expect(within(dialog).getByRole('heading', { name: 'Links you can fix' })).toBeInTheDocument();
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(2);
    const openWiki = within(item(dialog, 'Wiki')).getByRole('link', {
      name: 'Open Wiki (opens in a new tab)',
    });
    expect(openWiki).toHaveAttribute('href', 'https://wiki.example.com/');
    expect(openWiki).toHaveAttribute('target', '_blank');
    expect(openWiki).toHaveAttribute('rel', 'noopener noreferrer');
    // A broken link has no new address to offer.
    expect(within(item(dialog, 'Wiki')).queryByRole('button')).toBeNull();
  });

  it('offers the new address of a moved link, sends it, and the link leaves the list', async () => {
    const { dialog, user, requests } = await open(
      [broken404, moved],
      [{ method: 'PATCH', path: '/api/consumer/links/docs', status: 204 }],
    );
    expect(item(dialog, 'Docs')).toHaveTextContent('Moved: now at https://docs.example.com/');
    await user.click(
      within(item(dialog, 'Docs')).getByRole('button', { name: 'Update the address of Docs' }),
    );
    await waitFor(() =>
      expect(within(dialog).queryByRole('listitem', { name: 'Docs' })).not.toBeInTheDocument(),
    );
    const patch = requests.find((request) => request.method === 'PATCH');
    expect(patch?.url).toBe('/api/consumer/links/docs');
    expect(patch?.body).toEqual({ url: 'https://docs.example.com/' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('The address of Docs is updated.');
    expect(item(dialog, 'Wiki')).toBeInTheDocument();
  });

  it('keeps a moved link and says so when the update fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog, user } = await open(
      [moved],
      [{ method: 'PATCH', path: '/api/consumer/links/docs', status: 500, body: {} }],
    );
    await user.click(within(dialog).getByRole('button', { name: 'Update the address of Docs' }));
    expect(await within(item(dialog, 'Docs')).findByRole('alert')).toHaveTextContent(
      'The address could not be updated. Try again.',
    );
  });

  it('shows the links of collections shared with the person in a part of their own, with nothing to do', async () => {
    const { dialog } = await open([broken404, sharedBroken]);
    const part = within(dialog)
      .getByRole('heading', { name: 'In collections shared with you' })
      .closest('section')!;
    const shared = within(part).getByRole('listitem', { name: 'Trip map' });
    expect(shared).toHaveTextContent('Broken since Nov 3: the site answers 404 Not Found.');
    expect(within(shared).queryByRole('button')).toBeNull();
    expect(within(shared).queryByRole('link')).toBeNull();
    // Wiki is among the links to fix, not in the shared part.
    expect(within(part).queryByRole('listitem', { name: 'Wiki' })).toBeNull();
  });

  it('says that all is well when nothing needs attention', async () => {
    const { dialog } = await open([]);
    expect(
      await within(dialog).findByText('All your links work. Links are checked every day.'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('list')).toBeNull();
  });
});
