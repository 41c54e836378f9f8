// Sharing a collection with a whole team (decision 0086), in the browser: the owner picks
// the team in the add-members panel; a teammate's open portal shows the collection without a
// reload; a colleague who joins the team later sees it too, and a teammate taken out of the
// team stops seeing it, live; the details list the team and its owner can stop sharing.
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { consumerCalls } from './panels-support';
import {
  createToken,
  DEMO_EMAIL,
  expectAccessible,
  secondBrowser,
  signIn,
  tokenFor,
} from './support';

const TEAM = 'Field Guides';
const COLLECTION = 'Field notes';

async function asAdministrator(request: APIRequestContext) {
  return { Authorization: `Bearer ${await createToken(request, DEMO_EMAIL)}` };
}

test('share a collection with a team, and it follows who is in the team', async ({
  page,
  browser,
  baseURL,
  request,
  teamShareOwner: owner,
  teamShareMate: mate,
  teamShareJoiner: joiner,
}) => {
  const admin = await asAdministrator(request);
  const created = await request.post('/api/admin/teams', { headers: admin, data: { name: TEAM } });
  expect(created.status()).toBe(201);
  const teamId = ((await created.json()) as { id: string }).id;
  const added = await request.post(`/api/admin/teams/${teamId}/members`, {
    headers: admin,
    data: { userIds: [owner.id, mate.id] },
  });
  expect(added.ok()).toBe(true);
  await consumerCalls(request, await tokenFor(request, owner)).createCollection(COLLECTION);

  // The teammate's portal is open before anything is shared.
  const mates = await secondBrowser(browser, baseURL, mate);
  const joiners = await secondBrowser(browser, baseURL, joiner);
  const sharedTile = (where: typeof page) =>
    where
      .getByRole('region', { name: 'My Space' })
      .getByRole('button', { name: COLLECTION, exact: true });
  await expect(mates.page.getByRole('region', { name: 'My Space' })).toBeVisible();
  await expect(sharedTile(mates.page)).toHaveCount(0);

  await signIn(page, owner);
  await sharedTile(page).click();
  await page
    .getByRole('dialog', { name: COLLECTION })
    .getByRole('button', { name: 'Add members' })
    .click();
  const panel = page.getByRole('dialog', { name: `Add members to ${COLLECTION}` });
  const teams = panel.getByRole('group', { name: 'Teams' });
  await expect(teams).toContainText('including people who join it later');
  await teams.getByRole('checkbox', { name: TEAM }).check();
  await expectAccessible(page);
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel).toBeHidden();

  // The teammate sees it without a reload; the joiner does once the team has them.
  await expect(sharedTile(mates.page)).toBeVisible();
  await expect(sharedTile(mates.page)).toHaveAccessibleDescription(
    `Shared collection, 1 member and the teams ${TEAM}`,
  );
  await expect(sharedTile(joiners.page)).toHaveCount(0);
  const joined = await request.post(`/api/admin/teams/${teamId}/members`, {
    headers: admin,
    data: { userIds: [joiner.id] },
  });
  expect(joined.ok()).toBe(true);
  await expect(sharedTile(joiners.page)).toBeVisible();

  // The teammate taken out of the team stops seeing it, live.
  const removed = await request.post(`/api/admin/teams/${teamId}/members/remove`, {
    headers: admin,
    data: { userIds: [mate.id] },
  });
  expect(removed.ok()).toBe(true);
  await expect(sharedTile(mates.page)).toHaveCount(0);

  // The owner's details name the team, and the owner stops sharing with it: the joiner's
  // portal lets the collection go.
  await page
    .getByRole('dialog', { name: COLLECTION })
    .getByRole('button', { name: 'Collection menu' })
    .click();
  await page.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'Collection details' });
  await expect(details.getByText(TEAM, { exact: true })).toBeVisible();
  await details.getByRole('button', { name: `Stop sharing with ${TEAM}` }).click();
  await expect(details.getByText(TEAM, { exact: true })).toHaveCount(0);
  await expect(sharedTile(joiners.page)).toHaveCount(0);

  await mates.context.close();
  await joiners.context.close();
});
