import { chromium, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import type { AccessTokensResponse, AdminSuggestionsResponse } from '@signpost/contract';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { consumerCalls } from './panels-support';
import { expect, test } from './people-fixtures';
import {
  createToken,
  DEMO_EMAIL,
  expectAccessible,
  signIn,
  tokenFor,
  type Person,
} from './support';

// The browser extension (apps/extension, decision 0066), loaded into Chromium as a person
// loads it unpacked, against the real server: signed in with an access token made in the
// portal's settings, it adds the page a person is on to a collection of theirs, suggests it
// to a team they are a member of, finds it again with its search, and asks for a new token
// once that one is revoked.

/** What `npm run build` made (the journeys' server is started by it, playwright.config.ts). */
const BUILT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../extension/dist/extension',
);

/** A page of the person's own, with a title, at an address of the journeys' server. */
const TARGET = { path: '/reading/field-guide', title: 'Field guide to onboarding' };

/**
 * Chromium with the built extension, on a profile of its own. Extensions need a persistent
 * context; the new headless mode (Chromium's only one since 132) loads them.
 *
 * The extension asks for the portal's host when a person signs in (an optional host
 * permission) and Chromium asks the person in a dialog of its own, which a journey cannot
 * answer. So the copy loaded here lists the journeys' host as granted at install: the popup
 * makes the same request, and Chromium answers it at once, as it does for a person who
 * allowed the host before. Nothing else of the build changes.
 */
async function launchWithExtension(baseURL: string) {
  const folder = mkdtempSync(path.join(tmpdir(), 'signpost-extension-'));
  cpSync(BUILT, folder, { recursive: true });
  const manifestFile = path.join(folder, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  const portal = new URL(baseURL);
  manifest.host_permissions = [`${portal.protocol}//${portal.hostname}/*`];
  writeFileSync(manifestFile, JSON.stringify(manifest));

  const profile = mkdtempSync(path.join(tmpdir(), 'signpost-extension-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    baseURL,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-extensions-except=${folder}`,
      `--load-extension=${folder}`,
    ],
  });
  // Like every journey, nothing leaves this machine: web addresses elsewhere are refused.
  await context.route(
    (url) => /^https?:$/.test(url.protocol) && url.origin !== portal.origin,
    (route) => route.abort('blockedbyclient'),
  );
  // The page the person adds: served by the journey at the portal's host.
  await context.route(`${portal.origin}${TARGET.path}`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><title>${TARGET.title}</title><h1>${TARGET.title}</h1>`,
    }),
  );
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  };
  return { context, id: await extensionId(context), close };
}

/** The id Chromium gave the unpacked extension, as its extensions page lists it. */
async function extensionId(context: BrowserContext): Promise<string> {
  const page = await context.newPage();
  await page.goto('chrome://extensions');
  const id = await page.evaluate(async () => {
    const management = (
      globalThis as unknown as {
        chrome: { management: { getAll(): Promise<{ id: string; name: string }[]> } };
      }
    ).chrome.management;
    return (await management.getAll()).find((extension) => extension.name === 'Signpost')?.id;
  });
  await page.close();
  if (!id) throw new Error('the extension did not load');
  return id;
}

/** An access token made in the portal's settings, as a person makes one for a browser. */
async function makeTokenInSettings(page: Page, person: Person, name: string) {
  await signIn(page, person);
  await page.getByRole('contentinfo').getByRole('button', { name: 'Settings' }).click();
  const tokens = page.getByRole('region', { name: 'Access tokens' });
  await tokens.getByRole('textbox', { name: 'Token name' }).fill(name);
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const shown = tokens.getByRole('group', { name: `Your new token “${name}”` });
  const token = await shown.getByRole('textbox', { name: 'New access token' }).inputValue();
  await shown.getByRole('button', { name: 'Done' }).click();
  expect(token).toMatch(/^spat_/);
  return token;
}

/** A team of the two, made by the demo administrator, with a collection of its editor's. */
async function teamOf(request: APIRequestContext, editor: Person, member: Person) {
  const admin = { Authorization: `Bearer ${await createToken(request, DEMO_EMAIL)}` };
  const created = await request.post('/api/admin/teams', {
    headers: admin,
    data: { name: 'Field Notes' },
  });
  expect(created.status()).toBe(201);
  const team = (await created.json()) as { id: string };
  for (const [who, role] of [
    [editor, 'editor'],
    [member, 'member'],
  ] as const) {
    const added = await request.post(`/api/admin/teams/${team.id}/members`, {
      headers: admin,
      data: { userIds: [who.id], role },
    });
    expect(added.status()).toBe(200);
  }
  const editorToken = await tokenFor(request, editor);
  const made = await request.post('/api/consumer/collections', {
    headers: { Authorization: `Bearer ${editorToken}` },
    data: { name: 'Desk reading', spaceId: team.id },
  });
  expect(made.status()).toBe(204);
  return { editorToken };
}

test('the extension adds the page to a collection, suggests it to a team, finds it, and asks for a new token once it is revoked', async ({
  request,
  baseURL,
  extensionPerson: person,
  extensionTeamEditor: editor,
}) => {
  test.setTimeout(120_000);
  const personCalls = consumerCalls(request, await tokenFor(request, person));
  await personCalls.createCollection('Research');
  const { editorToken } = await teamOf(request, editor, person);

  const browser = await launchWithExtension(baseURL!);
  try {
    const { context, id } = browser;
    const portal = context.pages()[0] ?? (await context.newPage());
    const token = await makeTokenInSettings(portal, person, 'This browser');

    // The page to add, then the popup (opened as a page of its own, it takes the tab used
    // last before it).
    const target = await context.newPage();
    await target.goto(TARGET.path);
    await expect(target).toHaveTitle(TARGET.title);
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${id}/popup.html`);

    // First run: the portal's address and the token.
    await expect(popup.getByRole('heading', { name: 'Access your Signpost' })).toBeVisible();
    await expectAccessible(popup);
    await popup.getByLabel('Portal address').fill(baseURL!);
    await popup.getByLabel('Access token').fill(token);
    await popup.getByRole('button', { name: 'Continue' }).click();
    await expect(popup.getByRole('heading', { name: 'Add this page' })).toBeVisible();
    await expect(popup.getByText(`${person.name}, Northwind Labs`)).toBeVisible();
    await expect(popup.getByLabel('Link name')).toHaveValue(TARGET.title);
    await expect(popup.getByLabel('Link address')).toHaveValue(`${baseURL}${TARGET.path}`);
    await expect(popup.getByLabel('Collection')).toHaveValue(
      (await personCalls.find('My Space')).id,
    );
    await expectAccessible(popup);

    // Added to a collection of the person's: the portal's menu holds it.
    await popup.getByLabel('Collection').selectOption({ label: 'Research' });
    await popup.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(popup.getByRole('status').filter({ hasText: 'Added to Research.' })).toBeVisible();
    const research = await personCalls.find('Research');
    expect(research.items).toEqual([
      expect.objectContaining({
        type: 'link',
        name: TARGET.title,
        url: `${baseURL}${TARGET.path}`,
      }),
    ]);
    await expect(popup.getByText('Already in My Space › Research.')).toBeVisible();

    // Suggested to the team, where the person is a member only: its editor sees it.
    const deskReading = popup.getByLabel('Collection');
    await deskReading.selectOption({ label: 'Suggest to Field Notes: Desk reading' });
    await popup.getByLabel('Link name').fill('Onboarding field guide');
    await popup.getByRole('button', { name: 'Send suggestion' }).click();
    await expect(popup.getByText('Thank you, your suggestion was sent.')).toBeVisible();
    const suggestions = await request.get('/api/admin/suggestions', {
      headers: { Authorization: `Bearer ${editorToken}` },
    });
    expect(suggestions.status()).toBe(200);
    expect(((await suggestions.json()) as AdminSuggestionsResponse).items).toEqual([
      expect.objectContaining({
        name: 'Onboarding field guide',
        url: `${baseURL}${TARGET.path}`,
        status: 'open',
        suggestedBy: expect.objectContaining({ id: person.id }),
      }),
    ]);

    // Searched from the toolbar, and opened in a new tab.
    await popup.getByRole('searchbox', { name: 'Search links' }).fill('field guide');
    const results = popup.getByRole('list', { name: 'Search links' });
    const found = results.getByRole('link', { name: /^Field guide to onboarding/ });
    await expect(found).toContainText('My Space › Research');
    await expect(popup.getByText('1 link found')).toBeVisible();
    const [opened] = await Promise.all([context.waitForEvent('page'), found.click()]);
    await expect(opened).toHaveURL(`${baseURL}${TARGET.path}`);
    await opened.close();

    // The token revoked in the portal: the next call says so, and asks for a new one.
    const session = { Authorization: `Bearer ${await tokenFor(request, person)}` };
    const listed = (await (
      await request.get('/api/auth/tokens', { headers: session })
    ).json()) as AccessTokensResponse;
    const made = listed.items.find((item) => item.name === 'This browser');
    expect(made).toBeDefined();
    expect(
      (await request.delete(`/api/auth/tokens/${made!.id}`, { headers: session })).status(),
    ).toBe(204);
    await popup.getByLabel('Collection').selectOption({ label: 'My Space' });
    await popup.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(popup.getByRole('heading', { name: 'Access your Signpost' })).toBeVisible();
    await expect(popup.getByRole('alert')).toContainText(
      'This access token no longer works: it was revoked, or it expired.',
    );
    await expect(popup.getByLabel('Portal address')).toHaveValue(baseURL!);
    // Nothing was added with the revoked token.
    expect((await personCalls.find('My Space')).items?.map((item) => item.name)).not.toContain(
      'Onboarding field guide',
    );
  } finally {
    await browser.close();
  }
});
