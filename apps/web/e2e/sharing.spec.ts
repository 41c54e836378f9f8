import { expect, test } from './people-fixtures';
import path from 'node:path';
import { consumerCalls, SCREENSHOTS } from './panels-support';
import { expectAccessible, signIn, tokenFor } from './support';

test('share a collection with two colleagues found by scrolling the people list', async ({
  page,
  request,
  sharer: person,
  firstSharee: first,
  secondSharee: second,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, person));
  await calls.createCollection('Crew');

  await signIn(page, person);
  await page
    .getByRole('region', { name: 'My Space' })
    .getByRole('button', { name: 'Crew', exact: true })
    .click();
  await page
    .getByRole('dialog', { name: 'Crew' })
    .getByRole('button', { name: 'Add members' })
    .click();
  const panel = page.getByRole('dialog', { name: 'Add members to Crew' });
  // Typing goes straight to the people search: the panel focuses it as it opens.
  await expect(panel.getByRole('searchbox', { name: 'Search people' })).toBeFocused();
  const people = panel.getByRole('group', { name: 'People' });
  await expect(people.getByRole('checkbox')).toHaveCount(20);
  // The two people to pick are past this first page of 20.
  for (const wanted of [first, second]) {
    const box = people.getByRole('checkbox', { name: new RegExp(`^${wanted.name}`) });
    await expect(box).toHaveCount(0);
  }
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'members-panel.png') });

  for (const wanted of [first, second]) {
    const box = people.getByRole('checkbox', { name: new RegExp(`^${wanted.name}`) });
    await expect(async () => {
      await people.hover();
      await page.mouse.wheel(0, 1500);
      await expect(box).toBeAttached({ timeout: 500 });
    }).toPass();
    await box.check();
  }
  const chips = panel.getByRole('list', { name: 'Selected people' });
  await expect(chips.getByRole('listitem')).toHaveText([first.name, second.name]);
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel).toBeHidden();

  // The collection is shared: its details list the members.
  await page
    .getByRole('dialog', { name: 'Crew' })
    .getByRole('button', { name: 'Collection menu' })
    .click();
  await page.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'Collection details' });
  await expect(details.getByText(first.name)).toBeVisible();
  await expect(details.getByText(second.name)).toBeVisible();

  // Adding more goes to the same share; members are checked and cannot be chosen again.
  await details.getByRole('button', { name: 'Add members' }).click();
  const again = page.getByRole('dialog', { name: 'Add members to Crew' });
  await again.getByRole('searchbox', { name: 'Search people' }).fill(first.name);
  const member = again.getByRole('checkbox', { name: new RegExp(`^${first.name}`) });
  await expect(member).toBeChecked();
  await expect(member).toBeDisabled();
});

test('a member leaves a share, and its owner deletes it', async ({
  page,
  request,
  browser,
  sharingOwner: owner,
  sharingMember: member,
  sharingOtherMember: other,
}) => {
  const ownerCalls = consumerCalls(request, await tokenFor(request, owner));
  await ownerCalls.createCollection('Leavers');
  const leavers = await ownerCalls.find('Leavers');
  await ownerCalls.share(leavers.id, [member.id, other.id]);

  await signIn(page, member);
  const mySpace = page.getByRole('region', { name: 'My Space' });
  await mySpace.getByRole('button', { name: 'More actions for Leavers' }).click();
  const menu = page.getByRole('dialog', { name: 'Leavers' });
  await expect(menu.getByRole('list').getByRole('button')).toHaveText([
    'Details',
    'Import bookmarks…',
    'Export…',
    'Leave',
  ]);
  await menu.getByRole('button', { name: 'Leave' }).click();
  await expect(mySpace.getByRole('button', { name: 'Leavers', exact: true })).toHaveCount(0);

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner);
  const ownerSpace = ownerPage.getByRole('region', { name: 'My Space' });
  await ownerSpace.getByRole('button', { name: 'More actions for Leavers' }).click();
  const ownerMenu = ownerPage.getByRole('dialog', { name: 'Leavers' });
  await expect(ownerMenu.getByRole('list').getByRole('button')).toHaveText([
    'Details',
    'Edit',
    'Import bookmarks…',
    'Export…',
    'Delete',
  ]);
  await ownerMenu.getByRole('button', { name: 'Delete' }).click();
  await expect(ownerSpace.getByRole('button', { name: 'Leavers', exact: true })).toHaveCount(0);
  await ownerContext.close();

  const otherCalls = consumerCalls(request, await tokenFor(request, other));
  expect(JSON.stringify(await otherCalls.menu())).not.toContain('Leavers');
});
