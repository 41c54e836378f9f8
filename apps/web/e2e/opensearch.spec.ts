import { expect, test } from './people-fixtures';
import { DEMO_PASSWORD } from './support';

// Search from the browser's address bar (decision 0065): the page names the OpenSearch
// description, whose template opens the portal with its search filled in — through the
// sign-in when the person is not signed in yet.
test('the address bar’s search opens the portal’s search with the terms and their results', async ({
  page,
  request,
  addressBarSearcher: person,
}) => {
  await page.goto('/');
  const href = await page.locator('link[rel="search"]').getAttribute('href');
  const description = await request.get(href!);
  expect(description.headers()['content-type']).toMatch(/^application\/opensearchdescription\+xml/);
  const xml = await description.text();
  expect(xml).toContain('<ShortName>Signpost</ShortName>');
  const template = /<Url type="text\/html" method="get" template="([^"]+)"/.exec(xml)![1]!;
  // What a browser does with "wiki" typed after choosing Signpost in its address bar.
  const address = new URL(template.replace('{searchTerms}', 'wiki'));
  expect(address.origin).toBe(new URL(page.url()).origin);
  await page.goto(`${address.pathname}${address.search}`);

  // Not signed in yet: the terms wait through the sign-in.
  const signIn = page.getByRole('dialog', { name: 'Sign in' });
  await signIn.getByLabel('E-mail').fill(person.email);
  await signIn.getByLabel('Password').fill(DEMO_PASSWORD);
  await signIn.getByRole('button', { name: 'Log in' }).click();

  const search = page.getByRole('dialog', { name: 'Search' });
  await expect(search.getByRole('combobox', { name: 'Search links' })).toHaveValue('wiki');
  await expect(search.getByRole('option', { name: /^Company wiki/ })).toBeVisible();
  // The terms left the address, and are used once.
  expect(new URL(page.url()).search).toBe('');
  await page.keyboard.press('Escape');
  await expect(search).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('region', { name: 'My Space' })).toBeVisible();
  await expect(search).toHaveCount(0);
});
