import { expect, test } from './people-fixtures';
import { longPress } from './panels-support';
import { expectAccessible, signIn } from './support';

test('add an organization link to My Space by the icon menu and remove it by long press', async ({
  page,
  favoritingPerson: person,
}) => {
  await signIn(page, person);
  const organization = page.getByRole('region', { name: 'Northwind Labs' });
  const mySpace = page.getByRole('region', { name: 'My Space' });

  await organization.getByRole('button', { name: 'More actions for Payroll' }).click();
  const menu = page.getByRole('dialog', { name: 'Payroll' });
  await expect(menu.getByRole('list').getByRole('button')).toHaveText(['Info', 'Add to favorites']);
  await expectAccessible(page);
  await menu.getByRole('button', { name: 'Add to favorites' }).click();
  await expect(menu).toBeHidden();
  const favorite = mySpace.getByRole('link', { name: /^Payroll/ });
  await expect(favorite).toBeVisible();

  // A long press on the favorite opens its menu.
  const favoriteMenu = page.getByRole('dialog', { name: 'Payroll' });
  await longPress(page, favorite, favoriteMenu);
  await expect(favoriteMenu.getByRole('list').getByRole('button')).toHaveText([
    'Info',
    'Delete favorite',
  ]);
  await favoriteMenu.getByRole('button', { name: 'Delete favorite' }).click();
  await expect(favoriteMenu).toBeHidden();
  await expect(mySpace.getByRole('link', { name: /^Payroll/ })).toHaveCount(0);
});

test('link and collection details', async ({ page, detailsPerson: person }) => {
  await signIn(page, person);
  const organization = page.getByRole('region', { name: 'Northwind Labs' });

  // Link details of an organization link: fields, location, and add to My Space.
  await organization.getByRole('button', { name: 'More actions for Payroll' }).click();
  await page.getByRole('dialog', { name: 'Payroll' }).getByRole('button', { name: 'Info' }).click();
  const details = page.getByRole('dialog', { name: 'Link details' });
  await expect(details.getByText('Payslips, tax forms and bank details')).toBeVisible();
  await expect(details.getByRole('link', { name: 'https://www.adp.com/' })).toBeVisible();
  await expect(details.getByText('Northwind Labs > Company essentials')).toBeVisible();
  await expectAccessible(page);
  await details.getByRole('button', { name: 'Add to My Space' }).click();
  await expect(details).toBeHidden();

  // The favorite's details: the original link is the same link, not another one of its app
  // (Payroll is the only link of ADP), so there is no list of links in this app.
  const mySpace = page.getByRole('region', { name: 'My Space' });
  await mySpace.getByRole('button', { name: 'More actions for Payroll' }).click();
  await page.getByRole('dialog', { name: 'Payroll' }).getByRole('button', { name: 'Info' }).click();
  const favoriteDetails = page.getByRole('dialog', { name: 'Link details' });
  await expect(favoriteDetails.getByText('My Space', { exact: true })).toBeVisible();
  await expect(favoriteDetails.getByRole('region', { name: 'links in this app' })).toHaveCount(0);
  await favoriteDetails.getByRole('button', { name: 'Delete favorite' }).click();
  await expect(mySpace.getByRole('link', { name: /^Payroll/ })).toHaveCount(0);

  // Collection details of an organization collection: suggest a link.
  await organization.getByRole('button', { name: 'More actions for Travel' }).click();
  const travelMenu = page.getByRole('dialog', { name: 'Travel' });
  await expect(travelMenu.getByRole('list').getByRole('button')).toHaveText(['Details', 'Export…']);
  await travelMenu.getByRole('button', { name: 'Details' }).click();
  const collection = page.getByRole('dialog', { name: 'Collection details' });
  await expect(collection.getByText('Booking and policies for business trips')).toBeVisible();
  await expect(collection.getByRole('button', { name: /Delete|Leave/ })).toHaveCount(0);
  await collection.getByRole('button', { name: 'Suggest a link' }).click();
  await collection.getByLabel('Link address').fill('https://trainline.example.com');
  await collection.getByLabel('Link name').fill('Trainline');
  await expectAccessible(page);
  await collection.getByRole('button', { name: 'Send suggestion' }).click();
  // The undo notice of the favorite deleted above may still show in the panel (decision 0052).
  await expect(collection.getByRole('status').filter({ hasText: 'suggestion' })).toHaveText(
    'Thank you, your suggestion was sent.',
  );
});
