import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { consumerCalls, dragWithMouse, dragWithTouch } from './panels-support';
import {
  createToken,
  DEMO_EMAIL,
  expectAccessible,
  secondBrowser,
  signIn,
  tokenFor,
} from './support';

// Curating a space (decisions 0075, 0076): the people who run a space edit, arrange and move
// what is in it, from the item's menu and by drag and drop, several at once, each change
// undoable, and mend its broken links. One journey per role — a person in My Space, a team's
// editor, an administrator in the organization's space and in a team's without joining it —
// at each width, and every change is checked in a second portal that stays open: the same
// person's second window, or a member of the space.

/** Faster than the portal's own refresh (30 s): only a live update can bring it. */
const LIVE = { timeout: 5_000 };

const WIDTHS = [1280, 390] as const;
type Width = (typeof WIDTHS)[number];
const VIEWPORTS: Record<Width, { width: number; height: number }> = {
  1280: { width: 1280, height: 800 },
  390: { width: 390, height: 844 },
};

/** The links of each journey's board, in the order they are made. */
const LINKS = ['Alpha', 'Beta', 'Gamma', 'Delta'];
/** How many top-level collections a journey adds to its space, beyond what is there. */
const MANY = 12;

/** The spaces and the broken links of the demo (DEMO_LINK_HEALTH) each journey works with. */
const DEMO = {
  personBroken: { 1280: 'Project notes', 390: 'Book club' },
  team: { 1280: 'Sales', 390: 'People & Culture' },
  teamCollection: { 1280: 'Sales stack', 390: 'People tools' },
  teamBroken: { 1280: 'Price list', 390: 'Onboarding checklist' },
  adminBroken: { 1280: 'Partner portal', 390: 'Holiday calendar' },
} satisfies Record<string, Record<Width, string>>;

// Every journey may run beside another of the same space (the organization's): the
// collections it makes carry its width, so that each finds its own.
const names = (width: Width) => ({
  board: `Board ${width}`,
  one: `Level one ${width}`,
  renamed: `First level ${width}`,
  two: `Level two ${width}`,
  three: `Level three ${width}`,
  top: (index: number) => `Shelf ${index} of ${width}`,
});

/** Opens a collection shown as a tile on a space's card. */
async function openFromCard(page: Page, space: string, collection: string) {
  await page
    .getByRole('region', { name: space })
    .getByRole('button', { name: collection, exact: true })
    .click();
  const panel = page.getByRole('dialog', { name: collection });
  await expect(panel).toBeVisible();
  return panel;
}

/** Opens a collection shown as a tile in an open panel. */
async function openFromPanel(page: Page, panel: Locator, collection: string) {
  await panel.getByRole('button', { name: collection, exact: true }).click();
  const opened = page.getByRole('dialog', { name: collection });
  await expect(opened).toBeVisible();
  return opened;
}

/** The names of the links in a panel, in the order shown. */
const linkNames = (panel: Locator) =>
  panel
    .getByRole('link')
    .evaluateAll((links) =>
      links.map((link) => link.querySelector('.tile__name')?.textContent?.trim() ?? ''),
    );

/** Opens an item's menu by its three-dot button. */
async function itemMenu(page: Page, panel: Locator, name: string) {
  await panel.getByRole('button', { name: `More actions for ${name}` }).click();
  const menu = page.getByRole('dialog', { name });
  await expect(menu).toBeVisible();
  return menu;
}

/** The order of the board's links in the journey's portal, then in the second one. */
async function expectOrder(panel: Locator, watching: Locator, order: string[]) {
  await expect.poll(() => linkNames(panel)).toEqual(order);
  await expect.poll(() => linkNames(watching), LIVE).toEqual(order);
}

/** A journey's board: four links and a collection with two more levels inside it. */
async function makeBoard(calls: ReturnType<typeof consumerCalls>, width: Width, parentId?: string) {
  const n = names(width);
  await calls.createCollection(n.board, parentId);
  const board = await calls.find(n.board);
  await calls.createCollection(n.one, board.id);
  await calls.createCollection(n.two, (await calls.find(n.one)).id);
  await calls.createCollection(n.three, (await calls.find(n.two)).id);
  for (const name of LINKS) {
    await calls.createLink(board.id, name, `https://${name.toLowerCase()}.example/`);
  }
  return board;
}

/**
 * Deletes what a journey made in a space others see too (a team's, the organization's), so
 * that the journeys after it find the demo's. Gone already is fine: a journey may delete one.
 */
async function removeCollections(calls: ReturnType<typeof consumerCalls>, made: string[]) {
  for (const name of made) {
    const found = await calls.find(name).catch(() => null);
    if (found) await calls.deleteCollection(found.id);
  }
}

/** The demo administrator's headers, for what a journey needs arranged before it starts. */
async function asDemoAdministrator(request: APIRequestContext) {
  return { Authorization: `Bearer ${await createToken(request, DEMO_EMAIL)}` };
}

/**
 * What every role does with its board, open in `panel`, while `watching` shows the same
 * board in a second portal: edit a link and a collection; reorder by mouse, by touch and by
 * the keyboard; move a link three levels down; move several and delete several at once,
 * undoing each. The second portal shows every step without a reload, and at the end the
 * moved link where it went.
 */
async function arrangeBoard(
  page: Page,
  panel: Locator,
  watcher: Page,
  watching: Locator,
  width: Width,
) {
  const n = names(width);
  await expectOrder(panel, watching, LINKS);

  // Edit a link from its menu: the same form as adding one, with its app.
  await (await itemMenu(page, panel, 'Alpha')).getByRole('button', { name: 'Edit' }).click();
  const details = page.getByRole('dialog', { name: 'Link details' });
  await details.getByLabel('Link name').fill('Alpha board');
  await details.getByLabel('App', { exact: true }).fill('Miro');
  await details.getByRole('button', { name: 'Save' }).click();
  await expect(details.getByText('Alpha board', { exact: true })).toBeVisible();
  await expect(details.getByRole('definition').filter({ hasText: /^Miro$/ })).toBeVisible();
  await expectAccessible(page);
  await details.getByRole('button', { name: 'Close' }).click();
  await expect(watching.getByRole('link', { name: /^Alpha board/ })).toBeVisible(LIVE);

  // Rename a collection from its menu.
  await (await itemMenu(page, panel, n.one)).getByRole('button', { name: 'Edit' }).click();
  const collectionDetails = page.getByRole('dialog', { name: 'Collection details' });
  await collectionDetails.getByLabel('Name').fill(n.renamed);
  await collectionDetails.getByRole('button', { name: 'Save' }).click();
  await expect(collectionDetails.getByText(n.renamed, { exact: true })).toBeVisible();
  await collectionDetails.getByRole('button', { name: 'Close' }).click();
  await expect(watching.getByRole('button', { name: n.renamed, exact: true })).toBeVisible(LIVE);
  await expect(watching.getByRole('button', { name: n.one, exact: true })).toHaveCount(0);

  // The mouse: Delta onto Beta's place, backwards, so before it. Released over the carried
  // link, the button opens no tab.
  const link = (name: string) => panel.getByRole('link', { name: new RegExp(`^${name}`) });
  const tabs: string[] = [];
  const onTab = (tab: Page) => tabs.push(tab.url());
  page.context().on('page', onTab);
  await dragWithMouse(
    page,
    link('Delta'),
    () => link('Beta'),
    panel.getByTestId('drop-zone-trash'),
  );
  await expectOrder(panel, watching, ['Alpha board', 'Delta', 'Beta', 'Gamma']);
  page.context().off('page', onTab);
  expect(tabs).toEqual([]);

  // A finger, held for the long-press time: Alpha board onto Beta's place, forwards, so after.
  await dragWithTouch(
    page,
    link('Alpha board'),
    () => link('Beta'),
    panel.getByTestId('drop-zone-trash'),
  );
  await expectOrder(panel, watching, ['Delta', 'Beta', 'Alpha board', 'Gamma']);

  // The keyboard: Delta picked up by its move handle; the arrow keys step through the zones,
  // the collections and the places in reading order, and back from the start is the last
  // place, Gamma's.
  await panel.getByRole('button', { name: 'Move Delta' }).focus();
  await page.keyboard.press('Space');
  await expect(panel.getByTestId('drop-zone-trash')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(panel.locator('.place--over')).toHaveCount(1);
  await expect(panel.locator('.place--over').getByRole('link')).toHaveAccessibleName(/^Gamma/);
  await page.keyboard.press('Space');
  await expectOrder(panel, watching, ['Beta', 'Alpha board', 'Gamma', 'Delta']);

  // Move to… a collection three levels down the space, through its renamed first level.
  await (await itemMenu(page, panel, 'Gamma')).getByRole('button', { name: 'Move to…' }).click();
  const places = page.getByRole('dialog', { name: 'Move “Gamma” to' });
  await expect(places.getByRole('button', { name: new RegExp(`^${n.three}`) })).toContainText(
    `${n.renamed} › ${n.two}`,
  );
  await places.getByRole('button', { name: new RegExp(`^${n.three}`) }).click();
  await expect(page.getByRole('status').filter({ hasText: '“Gamma” moved' })).toBeVisible();
  await expectOrder(panel, watching, ['Beta', 'Alpha board', 'Delta']);

  // Several at once: Beta to Delta with a shift-click, moved together, then undone.
  await panel.getByRole('button', { name: 'Select' }).click();
  await panel.getByRole('checkbox', { name: 'Select Beta' }).click();
  await panel.getByRole('checkbox', { name: 'Select Delta' }).click({ modifiers: ['Shift'] });
  await expect(panel.getByRole('status').filter({ hasText: 'selected' })).toHaveText('3 selected');
  await expectAccessible(page);
  await panel.getByRole('button', { name: 'Move to…' }).click();
  await page
    .getByRole('dialog', { name: 'Move 3 items to' })
    .getByRole('button', { name: new RegExp(`^${n.renamed}`) })
    .click();
  await expectOrder(panel, watching, []);
  await page
    .getByRole('status')
    .filter({ hasText: '3 items moved' })
    .getByRole('button', { name: 'Undo' })
    .click();
  await expectOrder(panel, watching, ['Beta', 'Alpha board', 'Delta']);

  // Two deleted together, and brought back with one undo.
  await panel.getByRole('button', { name: 'Select' }).click();
  await panel.getByRole('checkbox', { name: 'Select Beta' }).click();
  await panel.getByRole('checkbox', { name: 'Select Delta' }).click();
  await panel.getByRole('button', { name: 'Delete' }).click();
  await expectOrder(panel, watching, ['Alpha board']);
  await page
    .getByRole('status')
    .filter({ hasText: '2 items deleted' })
    .getByRole('button', { name: 'Undo' })
    .click();
  await expectOrder(panel, watching, ['Beta', 'Alpha board', 'Delta']);

  // The second portal finds Gamma three levels down.
  let level = await openFromPanel(watcher, watching, n.renamed);
  level = await openFromPanel(watcher, level, n.two);
  level = await openFromPanel(watcher, level, n.three);
  await expect.poll(() => linkNames(level)).toEqual(['Gamma']);
  await level.getByRole('button', { name: 'Close' }).click();
  await expect(level).toBeHidden();
}

/** Opens "Show all" of a space's card, and checks that every one of `collections` is in it. */
async function showAll(page: Page, space: string, collections: string[]) {
  await page
    .getByRole('region', { name: space })
    .getByRole('button', { name: /^Show all/ })
    .click();
  const all = page.getByRole('dialog', { name: space });
  await expect(all).toBeVisible();
  for (const name of collections) {
    await expect(all.getByRole('region', { name }), name).toHaveCount(1);
  }
  return all;
}

// Each journey is one role's whole matrix at one width, with its own people and data, so any
// two run at once. Each takes some 30 s on an idle machine (two browsers, dozens of steps),
// twice that on two cores busy with other work: hence twice the usual time limit.
test.describe.configure({ mode: 'parallel', timeout: 120_000 });

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: VIEWPORTS[width], hasTouch: true });

    test('a person arranges My Space, reaches each of many collections, mends a broken link, and their second window follows', async ({
      page,
      request,
      browser,
      baseURL,
      cast,
    }) => {
      const person = await cast(`personCurator${width}`);
      const n = names(width);
      const calls = consumerCalls(request, await tokenFor(request, person));
      await makeBoard(calls, width);
      const tops = Array.from({ length: MANY }, (_, index) => n.top(index + 1));
      const last = n.top(MANY);
      for (const name of tops) await calls.createCollection(name);

      await signIn(page, person);
      const panel = await openFromCard(page, 'My Space', n.board);
      const second = await secondBrowser(browser, baseURL, person);
      const watching = await openFromCard(second.page, 'My Space', n.board);
      await arrangeBoard(page, panel, second.page, watching, width);
      await panel.getByRole('button', { name: 'Close' }).click();

      // Every collection of My Space is reached from Show all, beyond the twelve the card
      // shows: the last one opens.
      const mySpace = page.getByRole('region', { name: 'My Space' });
      await expect(mySpace.getByRole('button', { name: last, exact: true })).toHaveCount(0);
      const all = await showAll(page, 'My Space', ['My Space']);
      for (const name of [n.board, ...tops]) {
        await expect(all.getByRole('button', { name, exact: true }), name).toBeVisible();
      }
      await expectAccessible(page);
      await all.getByRole('button', { name: last, exact: true }).click();
      await expect(
        page.getByRole('dialog', { name: last }).getByText('Nothing here yet.'),
      ).toBeVisible();
      await page.getByRole('dialog', { name: last }).getByRole('button', { name: 'Close' }).click();

      // A broken link of their own (the demo's) is mended from its menu: the mark goes, here
      // and in the second window, with the new address.
      const broken = DEMO.personBroken[width];
      const address = `https://mended.northwind.example/${width}`;
      await expect(
        mySpace.getByRole('link', { name: new RegExp(`^${broken} — broken link`) }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: '1 link needs attention' })).toBeVisible();
      const elsewhere = second.page
        .getByRole('region', { name: 'My Space' })
        .getByRole('link', { name: new RegExp(`^${broken}`) });
      await expect(elsewhere).toHaveAccessibleName(/broken link/);
      await (await itemMenu(page, mySpace, broken)).getByRole('button', { name: 'Edit' }).click();
      const details = page.getByRole('dialog', { name: 'Link details' });
      await details.getByLabel('Link address').fill(address);
      await details.getByRole('button', { name: 'Save' }).click();
      await expect(details.getByRole('link', { name: address })).toBeVisible();
      await details.getByRole('button', { name: 'Close' }).click();
      await expect(
        mySpace.getByRole('link', { name: new RegExp(`^${broken}`) }),
      ).not.toHaveAccessibleName(/broken link/);
      await expect(page.getByRole('button', { name: /needs? attention$/ })).toHaveCount(0);
      await expect(elsewhere).toHaveAttribute('href', address, LIVE);
      await expect(elsewhere).not.toHaveAccessibleName(/broken link/);
      // The second window reaches the last collection too.
      await showAll(second.page, 'My Space', ['My Space']);
      await expect(
        second.page
          .getByRole('dialog', { name: 'My Space' })
          .getByRole('button', { name: last, exact: true }),
      ).toBeVisible();
      await second.context.close();
    });

    test('a team editor arranges the team space, reaches each of many collections, mends a broken link in the console, and a member follows', async ({
      page,
      request,
      browser,
      baseURL,
      cast,
    }) => {
      const editor = await cast(`teamCurator${width}`);
      const member = await cast(`teamWatcher${width}`);
      const n = names(width);
      const team = DEMO.team[width];
      // A member of the demo team, made its editor.
      const teamId = (await consumerCalls(request, await tokenFor(request, editor)).space(team)).id;
      const promoted = await request.patch(`/api/admin/teams/${teamId}/members/${editor.id}`, {
        headers: await asDemoAdministrator(request),
        data: { role: 'editor' },
      });
      expect(promoted.status()).toBe(204);
      const calls = consumerCalls(request, await tokenFor(request, editor));
      await makeBoard(calls, width, (await calls.find(DEMO.teamCollection[width])).id);
      const tops = Array.from({ length: MANY }, (_, index) => n.top(index + 1));
      const last = n.top(MANY);
      // Each with a link: a member's card shows items, and Show all every collection of them.
      for (const name of tops) {
        await calls.createTopCollection(name, teamId);
        await calls.createLink((await calls.find(name)).id, `In ${name}`);
      }

      try {
        await signIn(page, editor);
        const panel = await openFromCard(page, team, n.board);
        const watcher = await secondBrowser(browser, baseURL, member);
        const watching = await openFromCard(watcher.page, team, n.board);
        await arrangeBoard(page, panel, watcher.page, watching, width);
        await panel.getByRole('button', { name: 'Close' }).click();

        // The card lists every top-level collection by name, for those who run the space;
        // the last one opens, and Show all has each with its Add.
        const card = page.getByRole('region', { name: team });
        const collections = card.getByRole('list', { name: 'Collections' });
        for (const name of [DEMO.teamCollection[width], ...tops]) {
          await expect(collections.getByRole('button', { name, exact: true }), name).toBeVisible();
        }
        await expectAccessible(page);
        await collections.getByRole('button', { name: last, exact: true }).click();
        const opened = page.getByRole('dialog', { name: last });
        await expect(opened.getByRole('link', { name: new RegExp(`^In ${last}`) })).toBeVisible();
        await opened.getByRole('button', { name: 'Close' }).click();
        const all = await showAll(page, team, tops);
        await expect(all.getByRole('button', { name: `Add to ${last}` })).toBeVisible();
        await all.getByRole('button', { name: 'Close' }).click();
        // A member's Show all has them too.
        const seen = await showAll(watcher.page, team, tops);
        await seen.getByRole('button', { name: 'Close' }).click();

        // The team's broken link (the demo's), mended from the console: the member's portal
        // has the new address at once, and the editor's mark is gone.
        const broken = DEMO.teamBroken[width];
        const address = `https://mended.northwind.example/team-${width}`;
        await expect(
          card.getByRole('link', { name: new RegExp(`^${broken} — broken link`) }),
        ).toBeVisible();
        await page.getByRole('contentinfo').getByRole('button', { name: 'Administration' }).click();
        const console = page.getByRole('main', { name: 'Administration' });
        await console
          .getByRole('navigation', { name: 'Sections' })
          .getByRole('link', { name: 'Broken links' })
          .click();
        const row = console
          .getByRole('list', { name: 'Broken links' })
          .getByRole('listitem')
          .filter({ hasText: broken });
        await expect(row).toContainText(`${team} › ${DEMO.teamCollection[width]}`);
        await row.getByRole('button', { name: 'Edit the address' }).click();
        await row.getByLabel('Link address').fill(address);
        await row.getByRole('button', { name: 'Save the address' }).click();
        await expect(row.getByRole('status')).toHaveText(
          'Address saved. The link is checked again soon.',
        );
        await expectAccessible(page);
        const mended = watcher.page
          .getByRole('region', { name: team })
          .getByRole('link', { name: new RegExp(`^${broken}`) });
        await expect(mended).toHaveAttribute('href', address, LIVE);
        await page.getByRole('button', { name: 'Back to the portal' }).click();
        await expect(card.getByRole('link', { name: new RegExp(`^${broken}`) })).toHaveAttribute(
          'href',
          address,
        );
        await expect(
          card.getByRole('link', { name: new RegExp(`^${broken}`) }),
        ).not.toHaveAccessibleName(/broken link/);
        await watcher.context.close();
      } finally {
        await removeCollections(calls, [...tops, n.board]);
      }
    });

    test('an administrator arranges the organization space, reaches each of many collections, mends a broken link and edits its team space without joining, and a member follows', async ({
      page,
      request,
      browser,
      baseURL,
      cast,
    }) => {
      const admin = await cast(`organizationCurator${width}`);
      const member = await cast(`organizationWatcher${width}`);
      const n = names(width);
      const team = DEMO.team[width];
      // An administrator (the one at 390 is made one here).
      const promoted = await request.patch(`/api/admin/people/${admin.id}`, {
        headers: await asDemoAdministrator(request),
        data: { role: 'admin' },
      });
      expect(promoted.status()).toBe(200);
      const calls = consumerCalls(request, await tokenFor(request, admin));
      await makeBoard(calls, width, (await calls.find('Travel')).id);
      const organization = await calls.space('Northwind Labs');
      const tops = Array.from({ length: MANY - 1 }, (_, index) => n.top(index + 1));
      const last = n.top(MANY);
      for (const name of tops) await calls.createTopCollection(name, organization.id);

      try {
        await signIn(page, admin);
        const travel = await openFromCard(page, 'Northwind Labs', 'Travel');
        const panel = await openFromPanel(page, travel, n.board);
        const watcher = await secondBrowser(browser, baseURL, member);
        const watching = await openFromPanel(
          watcher.page,
          await openFromCard(watcher.page, 'Northwind Labs', 'Travel'),
          n.board,
        );
        await arrangeBoard(page, panel, watcher.page, watching, width);
        await panel.getByRole('button', { name: 'Close' }).click();

        // One more top-level collection, added from the card: the card lists every one by
        // name. The new one is no dead end: its panel adds a link, and its details delete
        // it, for the member too.
        const card = page.getByRole('region', { name: 'Northwind Labs' });
        await card.getByRole('button', { name: 'Add collection' }).click();
        const form = page.getByRole('dialog', { name: 'Add collection' });
        await form.getByLabel('Name').fill(last);
        await form.getByRole('button', { name: 'Add', exact: true }).click();
        const collections = card.getByRole('list', { name: 'Collections' });
        for (const name of ['Company essentials', 'Communication', 'Knowledge', ...tops, last]) {
          await expect(collections.getByRole('button', { name, exact: true }), name).toBeVisible();
        }
        await expectAccessible(page);
        const seen = await showAll(watcher.page, 'Northwind Labs', [...tops, last]);
        await collections.getByRole('button', { name: last, exact: true }).click();
        const corner = page.getByRole('dialog', { name: last });
        await expect(corner.getByText('Nothing here yet.')).toBeVisible();
        await corner.getByRole('button', { name: 'Collection menu' }).click();
        await expect(corner.getByRole('button', { name: 'Add link' })).toBeVisible();
        await corner.getByRole('button', { name: 'Details' }).click();
        await page
          .getByRole('dialog', { name: 'Collection details' })
          .getByRole('button', { name: 'Delete collection' })
          .click();
        await expect(collections.getByRole('button', { name: last, exact: true })).toHaveCount(0);
        await expect(seen.getByRole('region', { name: last })).toHaveCount(0, LIVE);
        await seen.getByRole('button', { name: 'Close' }).click();

        // A team's broken link (the demo's), mended from the console by an administrator
        // who is not in the team; then its space, opened from there, edited as its editors
        // do. The member, who is in the team, sees both at once.
        await expect(page.getByRole('region', { name: team })).toHaveCount(0);
        const broken = DEMO.adminBroken[width];
        const address = `https://mended.northwind.example/admin-${width}`;
        await page.getByRole('contentinfo').getByRole('button', { name: 'Administration' }).click();
        const console = page.getByRole('main', { name: 'Administration' });
        await console
          .getByRole('navigation', { name: 'Sections' })
          .getByRole('link', { name: 'Broken links' })
          .click();
        const row = console
          .getByRole('list', { name: 'Broken links' })
          .getByRole('listitem')
          .filter({ hasText: broken });
        await row.getByRole('button', { name: 'Edit the address' }).click();
        await row.getByLabel('Link address').fill(address);
        await row.getByRole('button', { name: 'Save the address' }).click();
        await expect(row.getByRole('status')).toHaveText(
          'Address saved. The link is checked again soon.',
        );
        await expectAccessible(page);
        const mended = watcher.page
          .getByRole('region', { name: team })
          .getByRole('link', { name: new RegExp(`^${broken}`) });
        await expect(mended).toHaveAttribute('href', address, LIVE);

        await row.getByRole('button', { name: `Open in ${team}` }).click();
        await expect(page).toHaveURL(/\/console\/teams\/[A-Za-z0-9_-]{21}\/space$/);
        const where = page.getByRole('dialog', { name: DEMO.teamCollection[width] });
        await expect(where.getByRole('link', { name: new RegExp(`^${broken}`) })).toHaveAttribute(
          'href',
          address,
        );
        await expectAccessible(page);
        await (await itemMenu(page, where, broken)).getByRole('button', { name: 'Edit' }).click();
        const details = page.getByRole('dialog', { name: 'Link details' });
        await details.getByLabel('Link name').fill(`${broken} (mended)`);
        await details.getByRole('button', { name: 'Save' }).click();
        await expect(details.getByText(`${broken} (mended)`, { exact: true })).toBeVisible();
        await details.getByRole('button', { name: 'Close' }).click();
        await expect(
          watcher.page
            .getByRole('region', { name: team })
            .getByRole('link', { name: new RegExp(`^${broken} \\(mended\\)`) }),
        ).toHaveAttribute('href', address, LIVE);
        // Still not a member: the portal has no card of the team.
        await where.getByRole('button', { name: 'Close' }).click();
        await page.getByRole('button', { name: 'Back to the portal' }).click();
        await expect(card).toBeVisible();
        await expect(page.getByRole('region', { name: team })).toHaveCount(0);
        await watcher.context.close();
      } finally {
        await removeCollections(calls, [...tops, last, n.board]);
      }
    });
  });
}
