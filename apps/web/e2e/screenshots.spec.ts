import type { Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import path from 'node:path';
import { SCREENSHOTS } from './panels-support';
import { DEMO_EMAIL, DEMO_PASSWORD, signIn } from './support';

// The README's screenshots of the login screen, the portal and search (the add and members
// panels are taken by their own journeys). Links' icons come from the portal, found on their
// sites by the server (decision 0068); this machine reaches no site, so every picture shows
// the same letter badges. Any request to another host would be refused here anyway.
test.use({ viewport: { width: 1280, height: 800 } });

async function stayLocal(page: Page) {
  await page.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.abort(),
  );
}

/** Waits until nothing moves: fonts are in and dialogs have finished their animation. */
async function settle(page: Page) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
}

test('screenshots of the login screen, the portal and search', async ({
  page,
  screenshotPerson: person,
}) => {
  await stayLocal(page);

  // A colleague about to sign in.
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByLabel('E-mail').fill(person.email);
  await modal.getByLabel('Password').fill(DEMO_PASSWORD);
  await modal.getByLabel('Password').blur();
  await settle(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'login.png') });
  await modal.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();

  // The demo person's portal, looked at without changing anything, every card in view.
  await signIn(page, { id: '', name: 'Dana Demo', email: DEMO_EMAIL });
  await expect(page.getByRole('region', { name: 'Northwind Labs' })).toBeVisible();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1280, height });
  await settle(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'portal.png') });

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('/');
  const search = page.getByRole('dialog', { name: 'Search' });
  await search.getByRole('combobox', { name: 'Search links' }).fill('notes');
  await expect(search.getByRole('region', { name: 'Results' })).toBeVisible();
  await expect(search.getByRole('option', { name: /Standup notes/ })).toBeVisible();
  await settle(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'search.png') });
});
