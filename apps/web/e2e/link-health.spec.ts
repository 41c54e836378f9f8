import { consumerCalls } from './panels-support';
import { expect, test } from './people-fixtures';
import { DEMO_EMAIL, expectAccessible, signIn, tokenFor } from './support';

// What the link checks found (decision 0069), as the demo data holds it: a colleague's own
// links, one moved and one broken, and a team link broken for three weeks.

test('links that need attention: marks, the list, a moved address updated, and the console', async ({
  page,
  browser,
  request,
  linkHealthPerson: person,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, person));
  await signIn(page, person);
  const mySpace = page.getByRole('region', { name: 'My Space' });
  await expect(
    mySpace.getByRole('link', { name: /^Team offsite photos — broken link/ }),
  ).toBeVisible();
  await expect(
    mySpace.getByRole('link', { name: /^Expense reports — moved to a new address/ }),
  ).toBeVisible();
  // Links that work carry no mark.
  await expect(mySpace.getByRole('link', { name: /— (broken link|moved)/ })).toHaveCount(2);

  await page.getByRole('button', { name: /^\d+ links need attention$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Links that need attention' });
  await expect(dialog.getByRole('heading', { name: 'Links you can fix' })).toBeVisible();
  const photos = dialog.getByRole('listitem', { name: 'Team offsite photos' });
  await expect(photos).toContainText(/Broken since .*: the site answers 410/);
  const expenses = dialog.getByRole('listitem', { name: 'Expense reports' });
  await expect(expenses).toContainText('Moved: now at https://expenses.northwind.example/reports');
  await expectAccessible(page);

  await expenses.getByRole('button', { name: 'Update the address of Expense reports' }).click();
  await expect(
    dialog.getByRole('status').filter({ hasText: 'The address of Expense reports' }),
  ).toHaveText('The address of Expense reports is updated.');
  await expect(dialog.getByRole('listitem', { name: 'Expense reports' })).toHaveCount(0);
  const updated = (await calls.find('My Space')).items?.find(
    (item) => item.name === 'Expense reports',
  );
  expect(updated).toMatchObject({ url: 'https://expenses.northwind.example/reports' });
  await page.keyboard.press('Escape');
  await expect(mySpace.getByRole('link', { name: /^Expense reports/ })).not.toHaveAccessibleName(
    /moved/,
  );
  await expect(page.getByRole('button', { name: '1 link needs attention' })).toBeVisible();

  // An administrator sees the organization's broken team link in the console.
  const admin = await browser.newPage();
  await signIn(admin, { id: '', name: 'Dana Demo', email: DEMO_EMAIL });
  await admin.getByRole('contentinfo').getByRole('button', { name: 'Administration' }).click();
  const console = admin.getByRole('main', { name: 'Administration' });
  await console.getByRole('link', { name: 'Broken links' }).click();
  await expect(admin).toHaveURL(/\/console\/broken-links$/);
  const broken = console.getByRole('list', { name: 'Broken links' });
  const vpn = broken.getByRole('listitem').filter({ hasText: 'VPN setup guide' });
  await expect(vpn).toContainText('IT');
  // Its address is edited with the same checks as adding a link: a refused address is said
  // under the field, and nothing changes.
  await vpn.getByRole('button', { name: 'Edit the address' }).click();
  await vpn.getByLabel('Link address').fill('javascript:alert(1)');
  await vpn.getByRole('button', { name: 'Save the address' }).click();
  await expect(vpn.getByLabel('Link address')).toHaveAttribute('aria-invalid', 'true');
  await expect(vpn.locator('.field-message')).toContainText(
    'address needs to be an http, https or mailto address',
  );
  await expectAccessible(admin);
  await vpn.getByRole('button', { name: 'Cancel' }).click();
  await expect(vpn).toContainText('VPN setup guide');
  // Deleted from its row, then undone from the notice: the row shows the link again, with its
  // actions, and no longer says it is deleted.
  await vpn.getByRole('button', { name: 'Delete the link' }).click();
  await expect(vpn.getByRole('status')).toHaveText(
    'Link deleted. You can undo it from the notice for a few seconds.',
  );
  await expect(vpn.getByRole('button', { name: 'Edit the address' })).toHaveCount(0);
  const deleted = admin.getByRole('status').filter({ hasText: '“VPN setup guide” deleted' });
  await deleted.getByRole('button', { name: 'Undo' }).click();
  await expect(vpn.getByRole('status')).toHaveText('Link restored. It is checked again soon.');
  await expect(vpn.getByRole('button', { name: 'Edit the address' })).toBeEnabled();
  await expect(vpn.getByRole('button', { name: 'Delete the link' })).toBeEnabled();
  // An address saved, then undone: the row shows the address it had.
  const address = (await vpn.locator('.admin-broken__url').textContent()) ?? '';
  expect(address).toMatch(/^https?:\/\//);
  await vpn.getByRole('button', { name: 'Edit the address' }).click();
  await vpn.getByLabel('Link address').fill('https://vpn.example.org/setup');
  await vpn.getByRole('button', { name: 'Save the address' }).click();
  await expect(vpn.getByRole('status')).toHaveText(
    'Address saved. The link is checked again soon.',
  );
  await expect(vpn.locator('.admin-broken__url')).toHaveText('https://vpn.example.org/setup');
  const changed = admin.getByRole('status').filter({ hasText: '“VPN setup guide” changed' });
  await changed.getByRole('button', { name: 'Undo' }).click();
  await expect(vpn.getByRole('status')).toHaveText(
    'Address put back. The link is checked again soon.',
  );
  await expect(vpn.locator('.admin-broken__url')).toHaveText(address);
  await expect(vpn.getByRole('button', { name: 'Edit the address' })).toBeEnabled();
  // The row opens the link where it lives: its team's space, at its collection.
  await vpn.getByRole('button', { name: 'Open in IT' }).click();
  await expect(admin).toHaveURL(/\/console\/teams\/[A-Za-z0-9_-]{21}\/space$/);
  const where = admin.getByRole('dialog').filter({ hasText: 'VPN setup guide' });
  await expect(where.getByRole('link', { name: /^VPN setup guide/ })).toBeVisible();
  await expectAccessible(admin);
  // Personal links are their owner's: not in the console.
  await expect(broken.getByText('Team offsite photos')).toHaveCount(0);
  await admin.close();
});
