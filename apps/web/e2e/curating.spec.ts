import type { Locator, Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { consumerCalls, dragWithMouse } from './panels-support';
import { expectAccessible, secondBrowser, signIn, tokenFor } from './support';

// Curating a space (decisions 0075, 0076): the people who run a space edit, arrange and move
// what is in it, from the item's menu and by drag and drop, each change undoable, and every
// open portal follows without a reload.

/** Faster than the portal's own refresh (30 s): only a live update can bring it. */
const LIVE = { timeout: 5_000 };

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

test('a team editor edits, reorders and moves, undoes, and a member sees each change live', async ({
  page,
  request,
  browser,
  baseURL,
  curatingEditor: editor,
  curationWatcher: watcher,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, editor));
  const top = await calls.find('Design tools');
  await calls.createCollection('Curation board', top.id);
  const board = await calls.find('Curation board');
  await calls.createCollection('Level two', board.id);
  const two = await calls.find('Level two');
  await calls.createCollection('Level three', two.id);
  for (const name of ['Alpha', 'Beta', 'Gamma']) {
    await calls.createLink(board.id, name, `https://${name.toLowerCase()}.example/`);
  }

  try {
    await signIn(page, editor);
    const panel = await openFromCard(page, 'Design', 'Curation board');
    const member = await secondBrowser(browser, baseURL, watcher);
    const watching = await openFromCard(member.page, 'Design', 'Curation board');
    expect(await linkNames(watching)).toEqual(['Alpha', 'Beta', 'Gamma']);

    // Edit a link from its menu: the same form as adding one, with its app.
    await (await itemMenu(page, panel, 'Alpha')).getByRole('button', { name: 'Edit' }).click();
    const details = page.getByRole('dialog', { name: 'Link details' });
    await details.getByLabel('Link name').fill('Alpha board');
    await details.getByLabel('App', { exact: true }).fill('Miro');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect(details.getByText('Alpha board', { exact: true })).toBeVisible();
    await expectAccessible(page);
    await details.getByRole('button', { name: 'Close' }).click();
    await expect(watching.getByRole('link', { name: /^Alpha board/ })).toBeVisible(LIVE);

    // The edit is undone from the notice, for everyone.
    const notice = page.getByRole('status').filter({ hasText: '“Alpha board” changed' });
    await notice.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText('Undone: it is as it was.')).toBeVisible();
    await expect(panel.getByRole('link', { name: /^Alpha/ })).toHaveCount(1);
    await expect(watching.getByRole('link', { name: /^Alpha board/ })).toHaveCount(0, LIVE);
    await expect(watching.getByRole('link', { name: /^Alpha(?! board)/ })).toBeVisible(LIVE);

    // Move down from the menu: the order is stored and reaches the member.
    await (await itemMenu(page, panel, 'Alpha')).getByRole('button', { name: 'Move down' }).click();
    await expect.poll(() => linkNames(panel)).toEqual(['Beta', 'Alpha', 'Gamma']);
    await expect.poll(() => linkNames(watching), LIVE).toEqual(['Beta', 'Alpha', 'Gamma']);

    // Drag with the mouse onto another link's place.
    await dragWithMouse(page, panel.getByRole('link', { name: /^Gamma/ }), () =>
      panel.getByRole('link', { name: /^Beta/ }),
    );
    await expect.poll(() => linkNames(panel)).toEqual(['Gamma', 'Beta', 'Alpha']);
    await expect.poll(() => linkNames(watching), LIVE).toEqual(['Gamma', 'Beta', 'Alpha']);

    // The keyboard: pick Alpha up by its move handle, step to a place, drop.
    await panel.getByRole('button', { name: 'Move Alpha' }).focus();
    await page.keyboard.press('Space');
    await expect(panel.getByTestId('drop-zone-trash')).toBeVisible();
    // The arrow keys step through the zones, the collections and the places; stop on a place.
    for (let step = 0; step < 8 && (await panel.locator('.place--over').count()) === 0; step++) {
      await page.keyboard.press('ArrowLeft');
    }
    await expect(panel.locator('.place--over')).toHaveCount(1);
    await page.keyboard.press('Space');
    await expect.poll(() => linkNames(panel)).not.toEqual(['Gamma', 'Beta', 'Alpha']);
    const afterKeyboard = await linkNames(panel);
    await expect.poll(() => linkNames(watching), LIVE).toEqual(afterKeyboard);

    // Move to… a collection three levels down the space.
    await (await itemMenu(page, panel, 'Gamma')).getByRole('button', { name: 'Move to…' }).click();
    const places = page.getByRole('dialog', { name: 'Move “Gamma” to' });
    await places.getByRole('button', { name: /^Level three/ }).click();
    await expect(panel.getByRole('link', { name: /^Gamma/ })).toHaveCount(0);
    await expect(watching.getByRole('link', { name: /^Gamma/ })).toHaveCount(0, LIVE);
    const moved = page.getByRole('status').filter({ hasText: '“Gamma” moved' });
    await expect(moved).toBeVisible();

    // Rename and recolour a collection from its menu.
    await (await itemMenu(page, panel, 'Level two')).getByRole('button', { name: 'Edit' }).click();
    const collectionDetails = page.getByRole('dialog', { name: 'Collection details' });
    await collectionDetails.getByLabel('Name').fill('Second level');
    await collectionDetails.getByRole('button', { name: 'Save' }).click();
    await expect(collectionDetails.getByText('Second level', { exact: true })).toBeVisible();
    await collectionDetails.getByRole('button', { name: 'Close' }).click();
    await expect(watching.getByRole('button', { name: 'Second level', exact: true })).toBeVisible(
      LIVE,
    );
    await member.context.close();
  } finally {
    const made = await calls.find('Curation board').catch(() => null);
    if (made) {
      const response = await request.delete(`/api/consumer/collections/${made.id}/`, {
        headers: { Authorization: `Bearer ${await tokenFor(request, editor)}` },
      });
      expect(response.status()).toBe(204);
    }
  }
});

test.describe('on a phone', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

  test('a person edits a link of their own, moves it up from its menu, and by touch', async ({
    page,
    request,
    phoneCurator: person,
  }) => {
    const calls = consumerCalls(request, await tokenFor(request, person));
    await calls.createCollection('Phone list');
    const list = await calls.find('Phone list');
    await calls.createLink(list.id, 'First');
    await calls.createLink(list.id, 'Second');

    await signIn(page, person);
    const panel = await openFromCard(page, 'My Space', 'Phone list');
    await (await itemMenu(page, panel, 'Second')).getByRole('button', { name: 'Edit' }).click();
    const details = page.getByRole('dialog', { name: 'Link details' });
    const address = details.getByLabel('Link address');
    await address.fill('javascript:alert(1)');
    await details.getByRole('button', { name: 'Save' }).click();
    // A wrong address is refused by its field, and nothing is saved.
    await expect(address).toHaveAttribute('aria-invalid', 'true');
    await address.fill('https://second.example/');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect(details.getByRole('link', { name: 'https://second.example/' })).toBeVisible();
    await expectAccessible(page);
    await details.getByRole('button', { name: 'Close' }).click();

    await (await itemMenu(page, panel, 'Second')).getByRole('button', { name: 'Move up' }).click();
    await expect.poll(() => linkNames(panel)).toEqual(['Second', 'First']);
    await page.reload();
    const again = await openFromCard(page, 'My Space', 'Phone list');
    await expect.poll(() => linkNames(again)).toEqual(['Second', 'First']);

    // Held for the long-press time, a link is carried by the finger onto another's place.
    const from = (await again.getByRole('link', { name: /^First/ }).boundingBox())!;
    const to = (await again.getByRole('link', { name: /^Second/ }).boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
      });
    const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
    const end = { x: to.x + to.width / 2, y: to.y + to.height / 2 };
    await touch('touchStart', start.x, start.y);
    await expect(again.getByTestId('drop-zone-trash')).toBeVisible();
    // The zones that show while carrying move the tiles: aim where Second is now.
    const now = (await again.getByRole('link', { name: /^Second/ }).boundingBox())!;
    const aim = { x: now.x + now.width / 2, y: now.y + now.height / 2 };
    for (let step = 1; step <= 8; step += 1) {
      await touch(
        'touchMove',
        start.x + ((aim.x - start.x) * step) / 8,
        start.y + ((aim.y - start.y) * step) / 8,
      );
    }
    await touch('touchEnd', end.x, end.y);
    await expect.poll(() => linkNames(again)).toEqual(['First', 'Second']);
  });
});

test('an administrator moves and deletes several organization links at once, undoes it, and reaches every top-level collection', async ({
  page,
  request,
  browser,
  baseURL,
  bulkAdministrator: admin,
  bulkWatcher: watcher,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, admin));
  const travel = await calls.find('Travel');
  await calls.createCollection('Bulk board', travel.id);
  const board = await calls.find('Bulk board');
  await calls.createCollection('Bulk target', board.id);
  for (const name of ['North', 'East', 'South', 'West']) {
    await calls.createLink(board.id, name, `https://${name.toLowerCase()}.example/`);
  }

  try {
    await signIn(page, admin);
    await openFromCard(page, 'Northwind Labs', 'Travel');
    await page
      .getByRole('dialog', { name: 'Travel' })
      .getByRole('button', { name: 'Bulk board', exact: true })
      .click();
    const panel = page.getByRole('dialog', { name: 'Bulk board' });
    const member = await secondBrowser(browser, baseURL, watcher);
    await openFromCard(member.page, 'Northwind Labs', 'Travel');
    await member.page
      .getByRole('dialog', { name: 'Travel' })
      .getByRole('button', { name: 'Bulk board', exact: true })
      .click();
    const watching = member.page.getByRole('dialog', { name: 'Bulk board' });
    await expect.poll(() => linkNames(watching)).toEqual(['North', 'East', 'South', 'West']);

    // Choose East to West with a shift-click, and move them together.
    await panel.getByRole('button', { name: 'Select' }).click();
    await panel.getByRole('checkbox', { name: 'Select East' }).click();
    await panel.getByRole('checkbox', { name: 'Select West' }).click({ modifiers: ['Shift'] });
    await expect(panel.getByRole('status').filter({ hasText: 'selected' })).toHaveText(
      '3 selected',
    );
    await expectAccessible(page);
    await panel.getByRole('button', { name: 'Move to…' }).click();
    await page
      .getByRole('dialog', { name: 'Move 3 items to' })
      .getByRole('button', { name: /^Bulk target/ })
      .click();
    await expect.poll(() => linkNames(panel)).toEqual(['North']);
    await expect.poll(() => linkNames(watching), LIVE).toEqual(['North']);

    // Undo the move: all three come back, for everyone.
    await page
      .getByRole('status')
      .filter({ hasText: '3 items moved' })
      .getByRole('button', { name: 'Undo' })
      .click();
    await expect.poll(() => linkNames(watching), LIVE).toEqual(['North', 'East', 'South', 'West']);

    // Delete two together, and bring them back with one undo.
    await panel.getByRole('button', { name: 'Select' }).click();
    await panel.getByRole('checkbox', { name: 'Select North' }).click();
    await panel.getByRole('checkbox', { name: 'Select South' }).click();
    await panel.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => linkNames(watching), LIVE).toEqual(['East', 'West']);
    await page
      .getByRole('status')
      .filter({ hasText: '2 items deleted' })
      .getByRole('button', { name: 'Undo' })
      .click();
    await expect.poll(() => linkNames(watching), LIVE).toEqual(['North', 'East', 'South', 'West']);
    await member.context.close();
    await page
      .getByRole('dialog', { name: 'Bulk board' })
      .getByRole('button', { name: 'Close' })
      .click();

    // Every top-level collection of the organization is reached from its card, an empty one
    // too: its panel adds a link, and its details delete it.
    const card = page.getByRole('region', { name: 'Northwind Labs' });
    await card.getByRole('button', { name: 'Add collection' }).click();
    const form = page.getByRole('dialog', { name: 'Add collection' });
    await form.getByLabel('Name').fill('Empty corner');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const collections = card.getByRole('list', { name: 'Collections' });
    await expect(collections.getByRole('button', { name: 'Empty corner' })).toBeVisible();
    await expect(collections.getByRole('button')).not.toHaveCount(1);
    await expectAccessible(page);

    // The empty one is no dead end: its panel adds a link, and its details delete it.
    await collections.getByRole('button', { name: 'Empty corner' }).click();
    const corner = page.getByRole('dialog', { name: 'Empty corner' });
    await expect(corner.getByText('Nothing here yet.')).toBeVisible();
    await corner.getByRole('button', { name: 'Collection menu' }).click();
    await expect(corner.getByRole('button', { name: 'Add link' })).toBeVisible();
    await corner.getByRole('button', { name: 'Details' }).click();
    await page
      .getByRole('dialog', { name: 'Collection details' })
      .getByRole('button', { name: 'Delete collection' })
      .click();
    await expect(collections.getByRole('button', { name: 'Empty corner' })).toHaveCount(0);
  } finally {
    const made = await calls.find('Bulk board').catch(() => null);
    if (made) {
      const response = await request.delete(`/api/consumer/collections/${made.id}/`, {
        headers: { Authorization: `Bearer ${await tokenFor(request, admin)}` },
      });
      expect(response.status()).toBe(204);
    }
  }
});
