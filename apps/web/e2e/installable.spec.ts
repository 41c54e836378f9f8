import type { Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOwnServer, type OwnServer } from './fresh-server';
import { expect, test } from './people-fixtures';
import { signIn } from './support';

// The portal as an installable app (decision 0065): a valid manifest, a service worker that
// controls the page, the last menu kept for offline use with a clear mark, changes that wait
// for the network, and the network picked up again.

const WRITES_WAIT =
  'You are offline, so this change was not made. What you entered is still here: try again once you are back online.';

/** Whether this browser keeps a menu (looked up without creating the store). */
async function keptMenuStored(page: Page) {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((database) => database.name);
    if (!names.includes('signpost-offline')) return false;
    return new Promise<boolean>((resolve) => {
      const request = indexedDB.open('signpost-offline');
      request.onerror = () => resolve(false);
      request.onsuccess = () => {
        const db = request.result;
        const get = db.transaction('kept').objectStore('kept').get('menu');
        get.onsuccess = () => {
          db.close();
          resolve(Boolean(get.result));
        };
        get.onerror = () => {
          db.close();
          resolve(false);
        };
      };
    });
  });
}

test('the manifest is served, valid, and names icons that exist', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const response = await request.get(href!);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    scope: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({
    name: 'Signpost',
    short_name: 'Signpost',
    start_url: '/',
    scope: '/',
    display: 'standalone',
  });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
  const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`);
  expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  for (const icon of manifest.icons) {
    const image = await request.get(new URL(icon.src, page.url()).href);
    expect(image.status(), icon.src).toBe(200);
    expect(image.headers()['content-type'], icon.src).toBe('image/png');
  }
  // The page says how it looks installed, and where the address bar's search is.
  await expect(page.locator('meta[name="theme-color"]').first()).toHaveAttribute(
    'content',
    /^#[0-9a-f]{6}$/,
  );
  await expect(page.locator('link[rel="search"]')).toHaveAttribute('href', '/opensearch.xml');
});

test('works offline with the last menu, marked, and picks the network up again', async ({
  page,
  context,
  offlinePerson: person,
}) => {
  await signIn(page, person);
  const mySpace = page.getByRole('region', { name: 'My Space' });
  await expect(mySpace).toBeVisible();
  // The service worker registers once the browser is idle, and takes the page.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 30_000,
  });
  await expect.poll(() => keptMenuStored(page), { timeout: 20_000 }).toBe(true);

  const mark = page.getByRole('status').filter({ hasText: /^Offline — showing your links as of/ });
  const slack = page.getByRole('link', { name: /^Slack/ });
  const addToMySpace = mySpace.getByRole('button', { name: 'Add', exact: true });
  await expect(mark).toHaveCount(0);

  // The network goes while the portal is open: the mark, the links stay, a change waits.
  await context.setOffline(true);
  await expect(mark).toBeVisible();
  await expect(slack).toBeVisible();
  await addToMySpace.click();
  const add = page.getByRole('dialog', { name: 'Add' });
  await add.getByRole('button', { name: 'New Collection' }).click();
  const form = page.getByRole('dialog', { name: 'Add collection' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Trips');
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(form.getByRole('alert')).toHaveText(WRITES_WAIT);
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Trips');
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);

  // Opened again without the network: the page from the service worker, the menu kept in
  // this browser, read-only: links and search, no Add.
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(mark).toBeVisible();
  await expect(slack).toBeVisible();
  await expect(mySpace).toBeVisible();
  await expect(addToMySpace).toHaveCount(0);
  await page.keyboard.press('/');
  const search = page.getByRole('dialog', { name: 'Search' });
  await search.getByRole('combobox', { name: 'Search links' }).fill('wiki');
  await expect(search.getByRole('option', { name: /^Company wiki/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(search).toHaveCount(0);

  // Back online: the mark goes, and the menu is read again, its controls with it.
  await context.setOffline(false);
  await expect(mark).toHaveCount(0);
  await expect(addToMySpace).toBeVisible();
});

// A new deploy, for real: a second build of the app (with another name, to be seen), served by
// the server restarted on it at the same address, while a page of the first build stays open.
test.describe('a new version', () => {
  test('is seen at the next visit, takes over without breaking an open page, and works offline', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const served = mkdtempSync(path.join(tmpdir(), 'signpost-e2e-deploy-'));
    const next = mkdtempSync(path.join(tmpdir(), 'signpost-e2e-next-'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    let server: OwnServer | null = null;
    const start = async () =>
      startOwnServer(
        () => ({ PORT: String(port), PUBLIC_URL: origin, WEB_DIR: served }),
        async () => (await fetch(`${origin}/api/auth/methods`)).ok,
      );
    const deploy = (from: string) => {
      rmSync(served, { recursive: true, force: true });
      cpSync(from, served, { recursive: true });
    };
    const context = await browser.newContext({ baseURL: origin });
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort('blockedbyclient'),
    );
    try {
      // The first version: this checkout's build.
      deploy(path.join(web, 'dist'));
      const first = entryOf(served);
      const later = laterChunkOf(served);
      server = await start();

      // The second version, built while the first one is being used.
      const built = spawnSync('npx', ['vite', 'build', '--outDir', next, '--emptyOutDir'], {
        cwd: web,
        env: { ...process.env, VITE_BRAND: 'Signpost Next' },
        encoding: 'utf8',
      });
      expect(built.status, built.stderr).toBe(0);
      const second = entryOf(next);
      expect(second).not.toBe(first);

      const old = await context.newPage();
      await old.goto('/');
      await expect(
        old.getByRole('heading', { name: 'Set up Signpost', exact: true }),
      ).toBeVisible();
      await old.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
        timeout: 30_000,
      });
      expect(await cached(old, first)).toBe(true);

      // The deploy: the server stops, its files are replaced, it starts again.
      await server.stop();
      server = null;
      deploy(next);
      server = await start();
      expect((await context.request.get(later)).status()).toBe(404);
      const manifest = await context.request.get('/manifest.webmanifest');
      expect(((await manifest.json()) as { name: string }).name).toBe('Signpost Next');

      // The open page of the first version still loads its own scripts: from the service
      // worker, though the server has them no more.
      expect(await old.evaluate((url) => import(url).then(() => 'loaded', String), later)).toBe(
        'loaded',
      );

      // The next visit sees the new version at once, from the network.
      const fresh = await context.newPage();
      await fresh.goto('/');
      await expect(
        fresh.getByRole('heading', { name: 'Set up Signpost Next', exact: true }),
      ).toBeVisible();
      expect(await entryOfPage(fresh)).toBe(second);
      // Its service worker waits: a page of the first version is still open.
      await expect.poll(() => waitingWorker(fresh), { timeout: 30_000 }).toBe(true);
      expect(await cached(fresh, first)).toBe(true);

      // That page gone, the next visit of the new one lets the new version take over.
      await old.close();
      await fresh.reload();
      await expect.poll(() => waitingWorker(fresh), { timeout: 30_000 }).toBe(false);
      await expect.poll(() => cached(fresh, first), { timeout: 10_000 }).toBe(false);
      expect(await cached(fresh, second)).toBe(true);

      // And without a server at all, the new version opens from the cache.
      await server.stop();
      server = null;
      const offline = await fresh.reload();
      expect(offline?.fromServiceWorker()).toBe(true);
      expect(await entryOfPage(fresh)).toBe(second);
      await expect(fresh.locator('.login__brand')).toHaveText('Signpost Next');
    } finally {
      await context.close();
      await server?.stop();
      rmSync(served, { recursive: true, force: true });
      rmSync(next, { recursive: true, force: true });
    }
  });
});

/** The address of a build's entry script, from its page. */
function entryOf(dist: string): string {
  const page = readFileSync(path.join(dist, 'index.html'), 'utf8');
  return /src="(\/assets\/index-[\w-]+\.js)"/.exec(page)![1]!;
}

/** A script of the build that the first screen does not load: the settings panel's. */
function laterChunkOf(dist: string): string {
  const name = readdirSync(path.join(dist, 'assets')).find((file) =>
    /^settings-panel-[\w-]+\.js$/.test(file),
  );
  return `/assets/${name!}`;
}

async function entryOfPage(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      document
        .querySelector<HTMLScriptElement>('script[type="module"][src]')
        ?.getAttribute('src') ?? null,
  );
}

/** Whether a version of the service worker is installed and waiting. */
function waitingWorker(page: Page): Promise<boolean> {
  return page.evaluate(async () =>
    Boolean((await navigator.serviceWorker.getRegistration())?.waiting),
  );
}

/** Whether a file is in one of the service worker's caches. */
function cached(page: Page, pathname: string): Promise<boolean> {
  return page.evaluate(async (wanted) => {
    for (const name of await caches.keys()) {
      const requests = await (await caches.open(name)).keys();
      if (requests.some((request) => new URL(request.url).pathname === wanted)) return true;
    }
    return false;
  }, pathname);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
