import { expect, test } from './people-fixtures';
import AxeBuilder from './axe';
import { lowContrasts } from './contrast';
import { consumerCalls } from './panels-support';
import { expectAccessible, signIn, tokenFor } from './support';

// Undo instead of regret (decision 0052): every deletion in the portal shows a notice with
// Undo, which puts back exactly what went.

test('delete a link from its menu, then undo it', async ({ page, request, undoLinkPerson }) => {
  const calls = consumerCalls(request, await tokenFor(request, undoLinkPerson));
  const root = (await calls.menu()).spaces[0]!.collections[0]!;
  await calls.createLink(root.id, 'Regretted', 'https://regretted.example/');
  const before = await calls.menu();

  await signIn(page, undoLinkPerson);
  const mySpace = page.getByRole('region', { name: 'My Space' });
  await mySpace.getByRole('button', { name: 'More actions for Regretted' }).click();
  await page
    .getByRole('dialog', { name: 'Regretted' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(mySpace.getByRole('link', { name: /^Regretted/ })).toHaveCount(0);

  const notice = page.getByRole('status').filter({ hasText: '“Regretted” deleted' });
  await expect(notice).toBeVisible();
  // The notice never takes the focus; Tab reaches its button.
  await expect(notice.getByRole('button', { name: 'Undo' })).not.toBeFocused();
  await expectAccessible(page);
  // Its buttons read, in the light theme and the dark one (WCAG AA, measured from the styles
  // the browser applied: axe leaves the fixed notice's contrast "to review").
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await lowContrasts(notice.getByRole('button'))).toEqual([]);
    await expectAccessible(page);
  }
  // The check sees what the Undo button looked like before: a plain button's white, with the
  // notice's text colour, white too.
  const undoButton = notice.getByRole('button', { name: 'Undo' });
  await undoButton.evaluate((button: HTMLElement) => {
    button.style.background = 'var(--surface)';
    button.style.color = 'inherit';
  });
  expect(await lowContrasts(undoButton)).toEqual([
    expect.objectContaining({ foreground: 'rgb(255, 255, 255)', ratio: 1, required: 4.5 }),
  ]);
  expect((await new AxeBuilder(page).analyze()).map((v) => v.id)).toContain('color-contrast');
  await undoButton.evaluate((button: HTMLElement) => button.removeAttribute('style'));
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('status').filter({ hasText: '“Regretted” is back.' })).toBeVisible();
  await expect(mySpace.getByRole('link', { name: /^Regretted/ })).toBeVisible();
  expect(await calls.menu()).toEqual(before);

  // Deleted again, Escape sends the notice away and the link stays deleted.
  await mySpace.getByRole('button', { name: 'More actions for Regretted' }).click();
  await page
    .getByRole('dialog', { name: 'Regretted' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const again = page.getByRole('status').filter({ hasText: '“Regretted” deleted' });
  await expect(again).toBeVisible();
  // Escape goes to an open dialog first: the link's details close with the deletion.
  await expect(page.getByRole('dialog', { name: 'Regretted' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(again).toHaveCount(0);
  await expect(mySpace.getByRole('link', { name: /^Regretted/ })).toHaveCount(0);
});

test('delete a collection with its links, reload, undo: everything is back', async ({
  page,
  request,
  undoCollectionPerson,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, undoCollectionPerson));
  await calls.createCollection('Archive');
  const archive = await calls.find('Archive');
  await calls.createCollection('Old projects', archive.id);
  const old = await calls.find('Old projects');
  await calls.createLink(archive.id, 'Handbook 2019');
  await calls.createLink(old.id, 'Roadmap 2020');
  const before = await calls.menu();

  await signIn(page, undoCollectionPerson);
  const mySpace = page.getByRole('region', { name: 'My Space' });
  await mySpace.getByRole('button', { name: 'More actions for Archive' }).click();
  await page
    .getByRole('dialog', { name: 'Archive' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(mySpace.getByRole('button', { name: 'Archive', exact: true })).toHaveCount(0);
  const notice = () =>
    page.getByRole('status').filter({ hasText: '“Archive” deleted, with everything in it' });
  await expect(notice()).toBeVisible();

  // A reload within the notice's time brings it back.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(notice()).toBeVisible();
  await notice().getByRole('button', { name: 'Undo' }).click();
  await expect(mySpace.getByRole('button', { name: 'Archive', exact: true })).toBeVisible();
  expect(await calls.menu()).toEqual(before);

  await mySpace.getByRole('button', { name: 'Archive', exact: true }).click();
  const panel = page.getByRole('dialog', { name: 'Archive' });
  await expect(panel.getByRole('link', { name: /^Handbook 2019/ })).toBeVisible();
  await panel.getByRole('button', { name: 'Old projects', exact: true }).click();
  await expect(
    page.getByRole('dialog', { name: 'Old projects' }).getByRole('link', { name: /^Roadmap 2020/ }),
  ).toBeVisible();
});

test('drop a link on the trash, then undo it from inside the panel', async ({
  page,
  request,
  undoTrashPerson,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, undoTrashPerson));
  await calls.createCollection('Drawer');
  const drawer = await calls.find('Drawer');
  await calls.createLink(drawer.id, 'Binned');
  await calls.createLink(drawer.id, 'Stays');
  await calls.createLink(drawer.id, 'Meant');

  await signIn(page, undoTrashPerson);
  await page
    .getByRole('region', { name: 'My Space' })
    .getByRole('button', { name: 'Drawer', exact: true })
    .click();
  const panel = page.getByRole('dialog', { name: 'Drawer' });
  /** Drops a link on the trash with the keyboard. */
  const binWithKeyboard = async (name: string) => {
    await panel.getByRole('button', { name: `Move ${name}` }).focus();
    await page.keyboard.press('Space');
    const trash = panel.getByTestId('drop-zone-trash');
    await expect(trash).toBeVisible();
    while (!(await trash.getAttribute('class'))?.includes('drop-zone--over')) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Space');
    await expect(panel.getByRole('link', { name: new RegExp(`^${name}`) })).toHaveCount(0);
  };

  // Meant: Escape in the notice sends it away, and only it: the panel stays open.
  await binWithKeyboard('Meant');
  const meant = panel.getByRole('status').filter({ hasText: '“Meant” deleted' });
  await meant.getByRole('button', { name: 'Undo' }).focus();
  await page.keyboard.press('Escape');
  await expect(meant).toHaveCount(0);
  await expect(panel).toBeVisible();
  const before = await calls.menu();
  expect(JSON.stringify(before)).not.toContain('"Meant"');

  await binWithKeyboard('Binned');

  // The panel stays open; the notice is inside it, where it can be used.
  const notice = panel.getByRole('status').filter({ hasText: '“Binned” deleted' });
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(panel.getByRole('link', { name: /^Binned/ })).toBeVisible();
  await expect(panel).toBeVisible();
  expect(await calls.menu()).toEqual(before);
});
