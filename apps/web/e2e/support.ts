import AxeBuilder from './axe';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import type { Person, SessionResponse } from '@signpost/contract';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'signpost-demo';

export type { Person };

/** A fresh session token of a demo account, by e-mail (every one has the demo password). */
export async function createToken(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email, password: DEMO_PASSWORD },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as SessionResponse).token;
}

/** A fresh session token of a person (the same as an e-mail/password sign-in gives). */
export function tokenFor(request: APIRequestContext, person: Person) {
  return createToken(request, person.email);
}

/** Signs in through the login screen. */
export async function signIn(page: Page, person: Person) {
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByLabel('E-mail').fill(person.email);
  await modal.getByLabel('Password').fill(DEMO_PASSWORD);
  await modal.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page) {
  // A panel fades in: measured mid-animation, its text is partly transparent and fails the
  // contrast rule. Wait for every running animation to finish, then look.
  await page.evaluate(() =>
    Promise.all(
      document.getAnimations().map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const violations = await new AxeBuilder(page).analyze();
  const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    severe.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/** A second person's browser, on this machine only like the journey's own, signed in. */
export async function secondBrowser(browser: Browser, baseURL: string | undefined, person: Person) {
  const context = await browser.newContext();
  const local = new URL(baseURL ?? 'http://127.0.0.1').origin;
  await context.route(
    (url) => url.origin !== local,
    (route) => route.abort('blockedbyclient'),
  );
  const page = await context.newPage();
  await signIn(page, person);
  return { context, page };
}
