import type { Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { expectAccessible, signIn, tokenFor } from './support';

// One browser, several people (decision 0080): a sign-in link made by someone else asks
// before it replaces anything, and a person who leaves — Logout, or a session ended
// elsewhere — leaves nothing of theirs in the browser's storage.

/** Everything this origin keeps in the page's storage: keys and values, and the stores. */
async function storageOf(page: Page) {
  return page.evaluate(async () => {
    const entries = (storage: Storage) =>
      Object.fromEntries(
        Array.from({ length: storage.length }, (_, i) => storage.key(i)!).map((key) => [
          key,
          storage.getItem(key),
        ]),
      );
    const keptMenu = await new Promise<unknown[]>((resolve) => {
      void indexedDB.databases().then((databases) => {
        if (!databases.some((database) => database.name === 'signpost-offline')) return resolve([]);
        const request = indexedDB.open('signpost-offline');
        request.onerror = () => resolve([]);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('kept')) {
            db.close();
            return resolve([]);
          }
          const all = db.transaction('kept').objectStore('kept').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result);
          };
          all.onerror = () => {
            db.close();
            resolve([]);
          };
        };
      });
    });
    const cached: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        if (new URL(request.url).pathname.startsWith('/api/')) cached.push(request.url);
      }
    }
    return {
      local: entries(window.localStorage),
      session: entries(window.sessionStorage),
      keptMenu,
      cached,
    };
  });
}

/** Uses the portal as a person does: opens a link from the search, searches, keeps a menu. */
async function useThePortal(page: Page) {
  await page.keyboard.press('/');
  const panel = page.getByRole('dialog', { name: 'Search' });
  const input = panel.getByRole('combobox', { name: 'Search links' });
  await input.fill('payr');
  const opened = page.context().waitForEvent('page');
  await panel
    .getByRole('option', { name: /Payroll/ })
    .first()
    .click();
  await (await opened).close();
  await input.fill('');
  await expect(panel.getByRole('region', { name: 'Last used' })).toContainText('Payroll');
  await page.keyboard.press('Escape');
  // The menu is kept for offline use once the browser is idle.
  await expect
    .poll(async () => (await storageOf(page)).keptMenu.length, { timeout: 20_000 })
    .toBeGreaterThan(0);
  const used = await storageOf(page);
  expect(JSON.stringify(used.local)).toContain('Payroll');
  expect(JSON.stringify(used.local)).toContain('payr');
}

/** Nothing of the person: no key but what no person owns, no kept menu, no API answer. */
async function expectNothingOfThePerson(page: Page) {
  await expect
    .poll(async () => {
      const { local, session, keptMenu, cached } = await storageOf(page);
      return { local, session, keptMenu, cached };
    })
    .toEqual({ local: {}, session: {}, keptMenu: [], cached: [] });
}

test('a sign-in link of another account asks first, naming it; declining keeps one’s own', async ({
  page,
  request,
  linkReceiver: me,
  linkSender: them,
}) => {
  await signIn(page, me);
  await expect(page.getByText(`Hello ${me.name}`)).toBeVisible();
  const mine = await page.evaluate(() => window.localStorage.getItem('my_jwt_key'));
  const theirs = await tokenFor(request, them);

  // A crafted link: the other person's session in the fragment, as a single sign-on's would
  // be, opened in a new tab of the same browser.
  const link = `/#session?token=${encodeURIComponent(theirs)}`;
  const tab = await page.context().newPage();
  await tab.goto(link);
  const question = tab.getByRole('dialog', { name: `Sign in as ${them.email}?` });
  await expect(question).toBeVisible();
  await expect(question).toContainText(them.name);
  await expect(question).toContainText(me.email);
  // Out of the address at once, and nothing replaced meanwhile.
  expect(tab.url()).not.toContain(theirs);
  expect(tab.url()).not.toContain('#');
  expect(await tab.evaluate(() => window.localStorage.getItem('my_jwt_key'))).toBe(mine);
  await expectAccessible(tab);
  // On a phone the long addresses break inside the question rather than widen the page.
  await tab.setViewportSize({ width: 360, height: 800 });
  expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await question.getByRole('button', { name: `Stay signed in as ${me.email}` }).click();
  await expect(tab.getByText(`Hello ${me.name}`)).toBeVisible();
  expect(await tab.evaluate(() => window.localStorage.getItem('my_jwt_key'))).toBe(mine);
  expect(JSON.stringify(await storageOf(tab))).not.toContain(theirs);
  await tab.close();

  // Pasted into the address bar of the open portal: the page is not loaded again, and the
  // link is taken out of the address and asked about all the same.
  await page.goto(link);
  const again = page.getByRole('dialog', { name: `Sign in as ${them.email}?` });
  await expect(again).toBeVisible();
  expect(page.url()).not.toContain(theirs);
  await again.getByRole('button', { name: `Stay signed in as ${me.email}` }).click();
  await expect(page.getByText(`Hello ${me.name}`)).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('my_jwt_key'))).toBe(mine);

  // Their session was only asked who it is: it goes on, unused here.
  const still = await request.get('/api/auth/sessions/current', {
    headers: { Authorization: `Bearer ${theirs}` },
  });
  expect(still.status()).toBe(200);
});

test('after Logout, and after a session ended elsewhere, the browser keeps nothing of the person', async ({
  page,
  request,
  sharedComputerPerson: person,
}) => {
  await signIn(page, person);
  await useThePortal(page);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await expectNothingOfThePerson(page);

  // Again, and this time the session is ended from elsewhere: the open portal hears it and
  // forgets the person too.
  await signIn(page, person);
  await useThePortal(page);
  const token = await page.evaluate(() => window.localStorage.getItem('my_jwt_key'));
  const ended = await request.post('/api/auth/logout', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(ended.status()).toBe(200);
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible({ timeout: 40_000 });
  await expectNothingOfThePerson(page);
});
