import { expect, test } from './people-fixtures';
import { expectAccessible, signIn, tokenFor } from './support';

test('browse a space and Show all', async ({ page, browsingPerson: person }) => {
  await signIn(page, person);
  const organization = page.getByRole('region', { name: 'Northwind Labs' });
  await expect(organization.getByRole('listitem')).toHaveCount(12);
  const toolbar = organization.getByRole('button', { name: /Northwind Labs/ });
  await toolbar.click();
  await expect(organization.getByRole('dialog', { name: 'Northwind Labs' })).toBeVisible();
  await toolbar.click();
  await expect(organization.getByRole('dialog', { name: 'Northwind Labs' })).toBeHidden();

  const link = organization.getByRole('link', { name: /Payroll/ });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');

  await organization.getByRole('button', { name: /Show all/ }).click();
  const panel = page.getByRole('dialog', { name: 'Northwind Labs' });
  await expect(panel.getByRole('region', { name: 'Knowledge' })).toBeVisible();
  const total = await panel.getByRole('listitem').count();
  expect(total).toBeGreaterThan(12);
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});

test('search with last-used links and recent searches', async ({
  page,
  request,
  context,
  searchingPerson: person,
}) => {
  await signIn(page, person);
  await page.keyboard.press('/');
  const panel = page.getByRole('dialog', { name: 'Search' });
  const input = panel.getByRole('combobox', { name: 'Search links' });
  // `/` opens search with the field focused, so the next keys are the query.
  await expect(input).toBeFocused();

  for (const [query, name] of [
    ['payr', /Payroll/],
    ['wiki', /Company wiki/],
    ['zoom', /Zoom/],
    ['slack', /Slack/],
  ] as const) {
    await input.fill(query);
    const result = panel.getByRole('option', { name });
    const opened = context.waitForEvent('page');
    await result.first().click();
    await (await opened).close();
  }
  await input.fill('');
  const lastUsed = panel.getByRole('region', { name: 'Last used' });
  await expect(lastUsed.getByRole('link').first()).toHaveAccessibleName(/Slack/);
  await expect(lastUsed.getByRole('link')).toHaveCount(3);
  await lastUsed.getByRole('button', { name: 'Show More' }).click();
  await expect(lastUsed.getByRole('link')).toHaveCount(4);

  const recent = panel.getByRole('region', { name: 'Recent searches' });
  await expect(recent.getByRole('option', { name: 'slack' })).toBeVisible();
  await recent.getByRole('button', { name: 'Show More' }).click();
  await expect(recent.getByRole('option', { name: 'payr' })).toBeVisible();
  await recent.getByRole('option', { name: 'wiki' }).click();
  await expect(panel.getByRole('option', { name: /Company wiki/ })).toBeVisible();
  await expectAccessible(page);

  // The lists belong to this session's token.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('dialog', { name: 'Search' })).toBeVisible();
  const otherToken = await tokenFor(request, person);
  await page.evaluate((token) => window.localStorage.setItem('my_jwt_key', token), otherToken);
  await page.reload();
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Search' }).getByRole('region', { name: 'Last used' }),
  ).toHaveCount(0);
});

test('logout ends the session on the server', async ({
  page,
  request,
  loggingOutPerson: person,
}) => {
  await signIn(page, person);
  const token = await page.evaluate(() => window.localStorage.getItem('my_jwt_key'));
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('my_jwt_key'))).toBeNull();
  const check = await request.get('/api/auth/sessions/current', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(check.status()).toBe(401);
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
});

test('a session revoked elsewhere returns to the login screen', async ({
  page,
  request,
  revokedPerson: person,
}) => {
  await signIn(page, person);
  const token = await page.evaluate(() => window.localStorage.getItem('my_jwt_key'));
  await request.delete('/api/auth/sessions/current', {
    headers: { Authorization: `Bearer ${token}` },
  });
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
});
