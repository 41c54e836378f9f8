import AxeBuilder from './axe';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { PeersResponse, Person, SessionResponse } from '@signpost/contract';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'signpost-demo';

export type { Person };

async function createToken(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email, password: DEMO_PASSWORD },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as SessionResponse).token;
}

/**
 * A colleague of the demo person, by position in the people list, so that every journey
 * signs in as somebody else and works on its own data.
 */
export async function colleague(request: APIRequestContext, index: number): Promise<Person> {
  const token = await createToken(request, DEMO_EMAIL);
  const response = await request.get(`/api/consumer/peers?limit=1&offset=${index}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as PeersResponse;
  const person = items[0];
  if (!person) throw new Error(`no colleague at ${index}`);
  return person;
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
