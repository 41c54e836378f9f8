// Single sign-on opened on another address of the server than its public one (decision
// 0054): the portal at 127.0.0.1 with PUBLIC_URL on localhost. The provider returns to
// localhost, so the sign-in starts there, and the person lands signed in on localhost.
import { test as base, expect } from '@playwright/test';
import { startOwnServer, STARTUP_LIMIT_MS } from './fresh-server';
import { DEMO_EMAIL, DEMO_PASSWORD } from './support';

interface TwoAddressServer {
  port: number;
  /** Everything the server printed so far. */
  output: () => string;
}

/** A server of its own with the demo data, listening on 127.0.0.1, public on localhost. */
const test = base.extend<object, { server: TwoAddressServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other
    async ({}, provide) => {
      const own = await startOwnServer(
        (port) => ({ PUBLIC_URL: `http://localhost:${port}`, DEMO_DATA: 'true' }),
        async (port) => {
          const methods = await fetch(`http://127.0.0.1:${port}/api/auth/methods`);
          return methods.ok && (await methods.text()).includes('sso-oidc-id-token');
        },
      );
      try {
        await provide({ port: own.port, output: own.output });
      } finally {
        await own.stop();
      }
    },
    { scope: 'worker', timeout: STARTUP_LIMIT_MS + 30_000 },
  ],
  // Both addresses of this server, and nothing else.
  context: async ({ context, server }, provide) => {
    const allowed = new Set([`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`]);
    await context.route(
      (url) => !allowed.has(url.origin),
      (route) => route.abort('blockedbyclient'),
    );
    await provide(context);
  },
});

test('single sign-on started at 127.0.0.1 lands signed in on the public address', async ({
  page,
  server,
}) => {
  const publicOrigin = `http://localhost:${server.port}`;
  // At start the log says where single sign-on returns.
  expect(server.output()).toContain(`single sign-on returns to ${publicOrigin}`);

  await page.goto(`http://127.0.0.1:${server.port}/`);
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByRole('button', { name: 'Northwind SSO (demo)' }).click();

  await expect(page.getByRole('heading', { name: 'Sign in to Northwind' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(publicOrigin);
  await page.getByLabel('E-mail').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page.getByText('Hello Dana Demo')).toBeVisible();
  await expect(page.getByText(/This sign-in link has expired/)).toHaveCount(0);
  expect(new URL(page.url()).origin).toBe(publicOrigin);
  expect(page.url()).not.toContain('#');
});

test('a start opened directly at 127.0.0.1 goes to the public address before the provider', async ({
  page,
  server,
}) => {
  const publicOrigin = `http://localhost:${server.port}`;
  await page.goto(`http://127.0.0.1:${server.port}/api/auth/sso/northwind-demo/start?returnTo=%2F`);
  await expect(page.getByRole('heading', { name: 'Sign in to Northwind' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(publicOrigin);
  await page.getByLabel('E-mail').fill('newhire9@example.com');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(publicOrigin);
});
