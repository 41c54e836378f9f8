import { expect, test } from './people-fixtures';
import { consumerCalls } from './panels-support';
import { expectAccessible, signIn, tokenFor } from './support';

// The search ranks and is an autocomplete (decision 0053). The person is in Engineering, which
// holds GitHub and Grafana, and is a member of the Launch checklist share, whose "Launch
// dashboard" is a Grafana link that comes first in the menu.
test('search ranks the name first and is driven by the keys', async ({
  page,
  request,
  context,
  rankingSearchPerson: person,
}) => {
  // A link of their own that mentions GitHub, and GitHub in My Space: both come before the
  // team's GitHub in the menu.
  const token = await tokenFor(request, person);
  const calls = consumerCalls(request, token);
  const mySpace = await calls.find('My Space');
  const github = await calls.find('GitHub');
  const headers = { Authorization: `Bearer ${token}` };
  const added = await request.post(`/api/consumer/collections/${mySpace.id}/links`, {
    headers,
    data: {
      name: 'My pull requests',
      description: 'Reviews on GitHub waiting for me',
      url: 'https://github.com/pulls',
    },
  });
  expect(added.status()).toBe(204);
  const favorite = await request.post(`/api/consumer/collections/${mySpace.id}/favorites`, {
    headers,
    data: { type: 'link', id: github.id },
  });
  expect(favorite.status()).toBe(204);

  await signIn(page, person);
  // GitHub opened from My Space first: the favorite.
  const fromMySpace = context.waitForEvent('page');
  await page
    .getByRole('region', { name: 'My Space' })
    .getByRole('link', { name: /^GitHub/ })
    .click();
  await (await fromMySpace).close();

  await page.keyboard.press('/');
  const panel = page.getByRole('dialog', { name: 'Search' });
  const input = panel.getByRole('combobox', { name: 'Search links' });
  await expect(input).toBeFocused();
  await expect(input).toHaveAttribute('aria-expanded', 'false');

  await page.keyboard.type('git');
  const results = panel.getByRole('listbox', { name: 'Results' });
  const options = results.getByRole('option');
  await expect(options.first()).toHaveAccessibleName(/^GitHub /);
  // The favorite and its original are one result.
  await expect(results.getByRole('option', { name: /^GitHub / })).toHaveCount(1);
  await expect(options.nth(1)).toHaveAccessibleName(/^My pull requests /);
  await expect(input).toHaveAttribute('aria-expanded', 'true');
  await expect(input).toHaveAttribute('aria-controls', (await results.getAttribute('id'))!);

  // The arrows move the active option; the focus stays in the field.
  await page.keyboard.press('ArrowDown');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(options.first()).toHaveAttribute('aria-selected', 'false');
  await expect(input).toHaveAttribute(
    'aria-activedescendant',
    (await options.nth(1).getAttribute('id'))!,
  );
  await page.keyboard.press('ArrowUp');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(input).toBeFocused();
  await expectAccessible(page);

  // Enter opens the active result in a new tab, as a click does.
  const opened = context.waitForEvent('page');
  const asked = context.waitForEvent('request', (r) => r.url().startsWith('https://github.com/'));
  await page.keyboard.press('Enter');
  const tab = await opened;
  expect((await asked).url()).toBe('https://github.com/');
  // Without an opener, like the tiles' rel="noopener noreferrer".
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await tab.close();

  // It is remembered: the last-used link (once, though opened as the favorite and as the
  // original) and the recent search, and the arrows reach that.
  await input.fill('');
  const lastUsed = panel.getByRole('region', { name: 'Last used' }).getByRole('link');
  await expect(lastUsed).toHaveCount(1);
  await expect(lastUsed).toHaveAccessibleName(/^GitHub/);
  const recent = panel.getByRole('listbox', { name: 'Recent searches' });
  await expect(recent.getByRole('option')).toHaveText(['git']);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(input).toHaveValue('git');
  await expect(options.first()).toHaveAccessibleName(/^GitHub /);

  // Grafana's own link before the Launch checklist's Grafana dashboard.
  await input.fill('grafana');
  await expect(options.first()).toHaveAccessibleName(/^Grafana /);
  await expect(options.nth(1)).toHaveAccessibleName(/^Launch dashboard /);

  // Escape closes the search, with a query typed or not.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.keyboard.press('/');
  await expect(input).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Typed in one go right after a reload, before the panel's script or its field are there:
  // no key is lost.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await page.keyboard.press('/');
  await page.keyboard.type('grafana');
  await expect(input).toHaveValue('grafana');
  await expect(input).toBeFocused();
  await expect(options.first()).toHaveAccessibleName(/^Grafana /);
});
