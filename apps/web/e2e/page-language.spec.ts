import { expect, test } from '@playwright/test';

// A German browser: the portal has no German texts yet, so the page is English and must say
// so, or a screen reader reads the English texts with a German voice.
test.use({ locale: 'de-DE' });

test('a German browser gets English texts on a page that says lang="en"', async ({ page }) => {
  await page.goto('/');
  expect(await page.evaluate(() => navigator.language)).toBe('de-DE');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await expect(modal.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(modal.getByLabel('Password')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});
