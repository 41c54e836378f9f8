import type { Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { consumerCalls } from './panels-support';
import { createToken, DEMO_EMAIL, secondBrowser, signIn, tokenFor } from './support';

// Live updates of the menu (decision 0062): a change by one person reaches the open portal
// of everyone who sees it, without a reload, well before the half-minute refresh.

/** Faster than the portal's own refresh (30 s): only the live update can bring it. */
const LIVE = { timeout: 5_000 };

/** Marks the page, so that a reload (which would clear the mark) is seen. */
async function markNoReload(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { liveMark: string }).liveMark = 'not reloaded';
  });
  return async () =>
    expect(await page.evaluate(() => (window as unknown as { liveMark?: string }).liveMark)).toBe(
      'not reloaded',
    );
}

/** Adds a link through a collection's panel, as a person does. */
async function addLinkInPanel(page: Page, panelName: string, name: string, url: string) {
  const panel = page.getByRole('dialog', { name: panelName });
  await panel.getByRole('button', { name: 'Collection menu' }).click();
  await panel.getByRole('button', { name: 'Add link' }).click();
  const form = page.getByRole('dialog', { name: 'Add link' });
  await form.getByLabel('Link address').fill(url);
  await form.getByLabel('Link name').fill(name);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
}

test("a share's member sees the owner's new link appear without reloading", async ({
  page,
  request,
  browser,
  baseURL,
  liveShareOwner: owner,
  liveShareMember: member,
}) => {
  const ownerCalls = consumerCalls(request, await tokenFor(request, owner));
  await ownerCalls.createCollection('Live notes');
  const notes = await ownerCalls.find('Live notes');
  await ownerCalls.share(notes.id, [member.id]);

  // The member has the shared collection open.
  await signIn(page, member);
  await page
    .getByRole('region', { name: 'My Space' })
    .getByRole('button', { name: 'Live notes', exact: true })
    .click();
  const memberPanel = page.getByRole('dialog', { name: 'Live notes' });
  await expect(memberPanel).toBeVisible();
  await expect(memberPanel.getByRole('link', { name: /^Release notes/ })).toHaveCount(0);
  const notReloaded = await markNoReload(page);

  // The owner, in a browser of their own, adds a link to it.
  const ownerBrowser = await secondBrowser(browser, baseURL, owner);
  await ownerBrowser.page
    .getByRole('region', { name: 'My Space' })
    .getByRole('button', { name: 'Live notes', exact: true })
    .click();
  await addLinkInPanel(
    ownerBrowser.page,
    'Live notes',
    'Release notes',
    'https://release.example.com/',
  );

  await expect(memberPanel.getByRole('link', { name: /^Release notes/ })).toBeVisible(LIVE);
  await notReloaded();
  await ownerBrowser.context.close();
});

test("a team's member sees an editor's change appear without reloading", async ({
  page,
  request,
  browser,
  baseURL,
  liveTeamEditor: editor,
  liveTeamMember: member,
}) => {
  // A team of the two, made by the demo administrator.
  const admin = { Authorization: `Bearer ${await createToken(request, DEMO_EMAIL)}` };
  const created = await request.post('/api/admin/teams', {
    headers: admin,
    data: { name: 'Live Desk' },
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
  // The team's space: one collection of the editor's, whose links its card shows.
  const editorCalls = consumerCalls(request, await tokenFor(request, editor));
  const made = await request.post('/api/consumer/collections', {
    headers: { Authorization: `Bearer ${await tokenFor(request, editor)}` },
    data: { name: 'Desk', spaceId: team.id },
  });
  expect(made.status()).toBe(204);
  await editorCalls.createLink((await editorCalls.find('Desk')).id, 'Team wiki');

  // The member has the portal open on the team's card.
  await signIn(page, member);
  const memberSpace = page.getByRole('region', { name: 'Live Desk' });
  await expect(memberSpace.getByRole('link', { name: /^Team wiki/ })).toBeVisible();
  await expect(memberSpace.getByRole('link', { name: /^On-call rota/ })).toHaveCount(0);
  const notReloaded = await markNoReload(page);

  // The editor adds a link to the team's space in their own browser.
  const editorBrowser = await secondBrowser(browser, baseURL, editor);
  const editorSpace = editorBrowser.page.getByRole('region', { name: 'Live Desk' });
  await editorSpace.getByRole('button', { name: 'Add', exact: true }).click();
  await editorBrowser.page.getByRole('button', { name: 'New Link' }).click();
  const form = editorBrowser.page.getByRole('dialog', { name: 'Add link' });
  await form.getByLabel('Link address').fill('https://rota.example.com/');
  await form.getByLabel('Link name').fill('On-call rota');
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(editorSpace.getByRole('link', { name: /^On-call rota/ })).toBeVisible();

  await expect(memberSpace.getByRole('link', { name: /^On-call rota/ })).toBeVisible(LIVE);
  await notReloaded();
  await editorBrowser.context.close();
});
