import { expect, test } from './people-fixtures';
import path from 'node:path';
import { SCREENSHOTS } from './panels-support';
import { expectAccessible, signIn } from './support';

test('add a link and a collection, then a link inside the collection', async ({
  page,
  addingPerson: person,
}) => {
  await signIn(page, person);
  const mySpace = page.getByRole('region', { name: 'My Space' });

  await mySpace.getByRole('button', { name: 'Add', exact: true }).click();
  const panel = page.getByRole('dialog', { name: 'Add' });
  await expect(panel.getByText('What do you want to add')).toBeVisible();
  await expect(panel.getByText('Select the type to Add')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'add-panel.png') });

  await panel.getByRole('button', { name: 'New Link' }).click();
  const linkPanel = page.getByRole('dialog', { name: 'Add link' });
  await expect(
    linkPanel.getByText('Enter the link address you would like to add to this team.'),
  ).toBeVisible();
  await linkPanel.getByLabel('Link address').fill('https://status.example.com');
  await linkPanel.getByLabel('Link name').fill('Status page');
  await linkPanel.getByLabel('Link description').fill('Is it down?');
  await expectAccessible(page);
  await linkPanel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(linkPanel).toBeHidden();
  await expect(mySpace.getByRole('link', { name: /^Status page/ })).toBeVisible();

  // A collection; the back arrow goes from a form to the choice, then closes.
  await mySpace.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'New Collection' }).click();
  const collectionPanel = page.getByRole('dialog', { name: 'Add collection' });
  await expect(collectionPanel.getByText('Enter a name for your collection')).toBeVisible();
  await collectionPanel.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('dialog', { name: 'Add' })).toBeVisible();
  await page.getByRole('button', { name: 'New Collection' }).click();
  await collectionPanel.getByLabel('Name', { exact: true }).fill('Trips');
  await collectionPanel.getByLabel('Description', { exact: true }).fill('Travel plans');
  await collectionPanel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(collectionPanel).toBeHidden();

  // Inside the collection, the add panel offers only the link form.
  await mySpace.getByRole('button', { name: 'Trips', exact: true }).click();
  const trips = page.getByRole('dialog', { name: 'Trips' });
  await expect(trips.getByText('Travel plans')).toBeVisible();
  await expectAccessible(page);
  await trips.getByRole('button', { name: 'Collection menu' }).click();
  await trips.getByRole('button', { name: 'Add link' }).click();
  const nested = page.getByRole('dialog', { name: 'Add link' });
  await expect(nested.getByText('In Trips')).toBeVisible();
  await expect(nested.getByRole('button', { name: 'New Collection' })).toHaveCount(0);
  await nested.getByLabel('Link address').fill('https://trains.example.com');
  await nested.getByLabel('Link name').fill('Trains');
  await nested.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(trips.getByRole('link', { name: /^Trains/ })).toBeVisible();
});
