// Bookmarks in and out (decision 0087), in the browser against the real server: a person
// imports a browser's or a link manager's export (files written from each product's format,
// apps/server/test/fixtures/bookmarks), finds its tree in the portal, exports it, and a
// colleague imports that export and finds the same tree.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { expectAccessible, signIn, type Person } from './support';

const FIXTURES = path.resolve(import.meta.dirname, '../../server/test/fixtures/bookmarks');

async function openSettings(page: Page) {
  await page.getByRole('contentinfo').getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings).toBeVisible();
  return settings;
}

/** Imports a file from the settings into a new collection in My Space; the preview's text. */
async function importFile(page: Page, file: { name: string; buffer: Buffer }) {
  const settings = await openSettings(page);
  await settings.getByRole('button', { name: 'Import bookmarks…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import bookmarks' });
  await dialog.getByLabel('Bookmark file').setInputFiles({ ...file, mimeType: 'text/plain' });
  const summary = dialog.getByRole('status');
  await expect(summary).toContainText(/\d+ links? and \d+ folders?/);
  await expectAccessible(page);
  const said = await summary.innerText();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Imported \d+ links? into /)).toBeVisible();
  // The settings it was opened from come back: close them to see the portal.
  await expect(settings).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
  return said;
}

/** The names in a collection's panel, in order (its tiles). */
async function openCollection(page: Page, name: string): Promise<Locator> {
  await page
    .getByRole('region', { name: 'My Space' })
    .getByRole('button', { name, exact: true })
    .click();
  const panel = page.getByRole('dialog', { name });
  await expect(panel).toBeVisible();
  return panel;
}

const cases: {
  file: string;
  person: 'chrome' | 'firefox' | 'linkwarden';
  collection: string;
  folder: string;
  inside: string;
}[] = [
  {
    file: 'chrome.html',
    person: 'chrome',
    collection: 'Bookmarks',
    folder: 'Bookmarks bar',
    inside: 'Work',
  },
  {
    file: 'firefox.html',
    person: 'firefox',
    collection: 'Bookmarks Menu',
    folder: 'Bookmarks Toolbar',
    inside: 'MDN Web Docs',
  },
  {
    file: 'linkwarden.json',
    person: 'linkwarden',
    collection: 'linkwarden',
    folder: 'Research',
    inside: 'Machine learning',
  },
];

for (const c of cases) {
  test(`import ${c.file}, find its folders, export it, and a colleague's import of that export is the same`, async ({
    page,
    browser,
    baseURL,
    cast,
  }) => {
    const person = (await cast(`${c.person}Importer`)) as Person;
    const reimporter = (await cast(`${c.person}Reimporter`)) as Person;
    await signIn(page, person);
    const buffer = readFileSync(path.join(FIXTURES, c.file));
    await importFile(page, { name: c.file, buffer });

    const panel = await openCollection(page, c.collection);
    await expect(panel.getByRole('button', { name: c.folder, exact: true })).toBeVisible();
    await panel.getByRole('button', { name: c.folder, exact: true }).click();
    await expect(page.getByRole('dialog', { name: c.folder })).toContainText(c.inside);

    // Its export in Signpost's JSON, downloaded from the collection's menu.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page
      .getByRole('region', { name: 'My Space' })
      .getByRole('button', { name: `More actions for ${c.collection}` })
      .click();
    await page
      .getByRole('dialog', { name: c.collection })
      .getByRole('button', { name: 'Export…' })
      .click();
    const exporting = page.getByRole('dialog', { name: `Export “${c.collection}”` });
    await exporting.getByLabel('Format').selectOption({ label: 'Signpost JSON' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exporting.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${c.collection}.json`);
    const json = readFileSync((await download.path())!, 'utf8');
    expect(JSON.parse(json)).toMatchObject({ format: 'signpost-bookmarks', title: c.collection });

    const context = await browser.newContext({ baseURL });
    const other = await context.newPage();
    await signIn(other, reimporter);
    await importFile(other, { name: `${c.collection}.json`, buffer: Buffer.from(json) });
    const theirs = await openCollection(other, c.collection);
    await expect(theirs.getByRole('button', { name: c.folder, exact: true })).toBeVisible();
    await context.close();
  });
}
