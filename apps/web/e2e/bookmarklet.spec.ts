import type { Page } from '@playwright/test';
import { consumerCalls } from './panels-support';
import { expect, test } from './people-fixtures';
import { DEMO_PASSWORD, expectAccessible, signIn, tokenFor } from './support';

// A page sent to the portal as `#add?url=…&title=…` (decision 0066), as the bookmarklet of
// the settings sends it: offered in My Space's add panel, filled in, after the sign-in if need
// be; added only when the person presses Add, and checked there like a typed address.

const sent = (url: string, title: string) =>
  `/#add?url=${encodeURIComponent(url)}&title=${encodeURIComponent(title)}`;

/** The add panel, as the portal opens it with the page. */
async function offered(page: Page, url: string, name: string) {
  const panel = page.getByRole('dialog', { name: 'Add link' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'Link address' })).toHaveValue(url);
  await expect(panel.getByRole('textbox', { name: 'Link name' })).toHaveValue(name);
  return panel;
}

test('a page sent while signed out is kept through the sign-in, and added to My Space on Add only', async ({
  page,
  request,
  baseURL,
  bookmarkletPerson: person,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, person));
  const url = 'https://handbook.example.com/onboarding?step=2';
  const title = 'Onboarding handbook — week one';
  await page.goto(sent(url, title));

  // The login screen, and the address already clean.
  const login = page.getByRole('dialog', { name: 'Sign in' });
  await expect(login).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);
  await login.getByLabel('E-mail').fill(person.email);
  await login.getByLabel('Password').fill(DEMO_PASSWORD);
  await login.getByRole('button', { name: 'Log in' }).click();

  const panel = await offered(page, url, title);
  await expectAccessible(page);
  // Nothing is added before the person's click.
  expect(JSON.stringify((await calls.find('My Space')).items ?? [])).not.toContain(url);

  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel).toBeHidden();
  await expect(
    page
      .getByRole('region', { name: 'My Space' })
      .getByRole('link', { name: new RegExp(`^${title}`) }),
  ).toBeVisible();
  expect((await calls.find('My Space')).items).toEqual(
    expect.arrayContaining([expect.objectContaining({ type: 'link', name: title, url })]),
  );
});

test('an unsafe address sent is refused like a typed one, and nothing is added', async ({
  page,
  request,
  unsafeBookmarkletPerson: person,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, person));
  await signIn(page, person);
  const before = (await calls.find('My Space')).items ?? [];

  await page.goto(sent('javascript:alert(document.cookie)', 'Steal the cookie'));
  const panel = await offered(page, 'javascript:alert(document.cookie)', 'Steal the cookie');
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  const address = panel.getByRole('textbox', { name: 'Link address' });
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expect(address).toHaveAccessibleDescription(
    "The link's address needs to be an http, https or mailto address.",
  );
  await expect(panel).toBeVisible();
  expect((await calls.find('My Space')).items ?? []).toEqual(before);
});

test('the bookmarklet of the settings sends the page a person is on, in a new tab or in the same one', async ({
  page,
  context,
  request,
  baseURL,
  bookmarkletSettingsPerson: person,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, person));
  // The page the person reads: served by the journey at the portal's host.
  const article = { path: '/articles/field-notes', title: 'Field notes from the launch' };
  await context.route(`${baseURL}${article.path}`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><title>${article.title}</title><p>Notes.</p>`,
    }),
  );

  await signIn(page, person);
  await page.getByRole('contentinfo').getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Add pages from your browser' });
  const bookmark = section.getByRole('link', { name: 'Add to Signpost' });
  const code = (await bookmark.getAttribute('href')) ?? '';
  expect(code).toMatch(/^javascript:/);
  expect(code).toContain(JSON.stringify(`${baseURL}/#add?url=`));
  await expectAccessible(page);
  // Clicked on the portal, it runs nothing (the portal's policy forbids it) and says why.
  await bookmark.click();
  await expect(section.getByText('Drag the button to your bookmarks bar')).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);

  // On the article, the bookmark opens the portal in a new tab with the page.
  const reading = await context.newPage();
  await reading.goto(article.path);
  const script = code.slice('javascript:'.length);
  const [portal] = await Promise.all([context.waitForEvent('page'), reading.evaluate(script)]);
  const panel = await offered(portal, `${baseURL}${article.path}`, article.title);
  await expect(portal).toHaveURL(`${baseURL}/`);
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel).toBeHidden();
  expect((await calls.find('My Space')).items).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: article.title, url: `${baseURL}${article.path}` }),
    ]),
  );
  await portal.close();

  // Where the browser refuses a new tab, the same tab goes to the portal.
  await reading.evaluate(() => {
    window.open = () => null;
  });
  await reading.evaluate(script);
  await offered(reading, `${baseURL}${article.path}`, article.title);
  await expect(reading).toHaveURL(`${baseURL}/`);
});
