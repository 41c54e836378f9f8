import { expect, test } from './people-fixtures';
import { consumerCalls } from './panels-support';
import { expectAccessible, signIn, tokenFor } from './support';

// The server's message for what it refuses shows where the change is needed (decision 0055).
test("a refused address shows the server's message beside the address field, and nothing is saved", async ({
  page,
  request,
  refusedLinkPerson: person,
}) => {
  await signIn(page, person);
  const mySpace = page.getByRole('region', { name: 'My Space' });
  await mySpace.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'New Link' }).click();
  const panel = page.getByRole('dialog', { name: 'Add link' });
  const address = panel.getByLabel('Link address');
  await address.fill('javascript:alert(1)');
  await panel.getByLabel('Link name').fill('Nope');
  await panel.getByRole('button', { name: 'Add', exact: true }).click();

  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expect(address).toHaveAccessibleDescription(
    "The link's address needs to be an http, https or mailto address.",
  );
  await expect(
    panel.getByText("The link's address needs to be an http, https or mailto address."),
  ).toBeVisible();
  await expect(address).toBeFocused();
  await expect(address).toHaveValue('javascript:alert(1)');
  await expect(panel.getByLabel('Link name')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(panel.getByText('Sorry, that did not work. Please try again.')).toHaveCount(0);
  await expect(panel).toBeVisible();
  // The loading state ends by itself.
  await expect(panel.getByRole('button', { name: 'Add', exact: true })).toBeEnabled();
  await expectAccessible(page);

  // Nothing was saved.
  const menu = await consumerCalls(request, await tokenFor(request, person)).menu();
  expect(JSON.stringify(menu)).not.toContain('Nope');

  // Back to the choice and to the link form again: the message is gone, and a corrected
  // address goes through.
  await panel.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('dialog', { name: 'Add' }).getByRole('button', { name: 'New Link' }).click();
  await expect(address).not.toHaveAttribute('aria-invalid', 'true');
  await expect(panel.getByText("The link's address needs to be an http")).toHaveCount(0);
  await address.fill('https://alerts.example.com');
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel).toBeHidden();
  await expect(mySpace.getByRole('link', { name: /^Nope/ })).toBeVisible();
  await expect(mySpace.getByRole('link', { name: /^Nope/ })).toHaveAttribute(
    'href',
    'https://alerts.example.com/',
  );
});
