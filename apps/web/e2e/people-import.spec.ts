import { test as base, type Page } from '@playwright/test';
import { expect, startFreshServer, STARTUP_LIMIT_MS, type FreshServer } from './fresh-server';
import { expectAccessible } from './support';

// People from a CSV file (decision 0085), from the console to the real server and back: a
// file chosen, its preview with a refused row, the import, and the people in the list.

const ADMIN = { name: 'Ida Import', email: 'ida@import.example', password: 'import-pass-1' };
const FILE = [
  'Name,E-mail,Role',
  '"Lena, the Lead",lena@import.example,member',
  'Omar Onboard,omar@import.example,',
  'Broken Row,not-an-address,',
].join('\r\n');

/**
 * A server of this journey's own, on an empty database: the people it imports stay out of
 * the demo organization the other journeys share.
 */
const test = base.extend<{ ownServer: FreshServer }>({
  ownServer: [
    // eslint-disable-next-line no-empty-pattern -- a fixture that needs no other
    async ({}, provide) => {
      const { server, stop } = await startFreshServer();
      try {
        await provide(server);
      } finally {
        await stop();
      }
    },
    { timeout: STARTUP_LIMIT_MS + 30_000 },
  ],
  baseURL: async ({ ownServer }, provide) => provide(ownServer.baseURL),
  context: async ({ context, ownServer }, provide) => {
    const local = new URL(ownServer.baseURL).origin;
    await context.route(
      (url) => url.origin !== local,
      (route) => route.abort('blockedbyclient'),
    );
    await provide(context);
  },
});

async function signIn(page: Page) {
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByLabel('E-mail').fill(ADMIN.email);
  await modal.getByLabel('Password').fill(ADMIN.password);
  await modal.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

test('an administrator imports people from a CSV file and finds them in the list', async ({
  page,
  request,
  ownServer,
}) => {
  test.setTimeout(120_000);
  const setup = await request.post('/api/setup/', {
    data: {
      organizationName: 'Import Works',
      name: ADMIN.name,
      email: ADMIN.email,
      password: ADMIN.password,
      setupCode: ownServer.setupCode,
    },
  });
  expect(setup.status()).toBe(201);
  await signIn(page);

  await page.goto('/console/people');
  await page.getByRole('button', { name: 'Import from CSV…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import people from a CSV file' });
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(FILE, 'utf8'),
  });
  await expect(dialog.getByText('2 people to create')).toBeVisible();
  await expect(dialog.getByText('1 row refused')).toBeVisible();
  const refusals = dialog.getByRole('table', { name: 'Refused rows' });
  await expect(refusals.getByRole('row', { name: /4 not-an-address/ })).toContainText(
    'This is not an e-mail address.',
  );
  await expect(dialog.getByRole('table', { name: 'First rows' })).toContainText('Lena, the Lead');
  await expectAccessible(page);

  await dialog.getByRole('button', { name: 'Import 2 people' }).click();
  await expect(dialog.getByRole('status')).toContainText(
    'Imported: 2 created, 0 changed, 0 already so, 1 refused.',
  );
  await dialog.getByRole('button', { name: 'Done' }).click();

  const people = page.getByRole('main', { name: 'Administration' });
  await expect(people.getByText('Lena, the Lead')).toBeVisible();
  await expect(people.getByText('omar@import.example')).toBeVisible();
});
