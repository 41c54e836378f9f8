import { expect, test } from './people-fixtures';
import { consumerCalls } from './panels-support';
import { DEMO_EMAIL, expectAccessible, signIn, tokenFor } from './support';

// What a new person meets in their first ten minutes (decision 0056).

test('a team names its support contact on its card and in its info, and Escape closes the info', async ({
  page,
  buddySeeker: person,
}) => {
  await signIn(page, person);
  const design = page.getByRole('region', { name: 'Design' });
  // On the card itself, without opening anything: who it is and a link to write to them.
  await expect(design).toContainText('Support contact: Ben Tanaka');
  await expect(design.getByRole('link', { name: 'ben.tanaka@example.com' })).toHaveAttribute(
    'href',
    'mailto:ben.tanaka@example.com',
  );

  const toggle = design.getByRole('button', { name: 'Team space: Design' });
  await toggle.click();
  const info = page.getByRole('dialog', { name: 'Design' });
  await expect(info).toContainText('Support contact: Ben Tanaka');
  await expect(info.getByRole('link', { name: 'ben.tanaka@example.com' })).toHaveAttribute(
    'href',
    'mailto:ben.tanaka@example.com',
  );
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(info).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();

  // A team collection's details say nothing of sharing: sharing is for personal collections.
  await toggle.click();
  await info.getByRole('button', { name: 'Suggest a link' }).click();
  const details = page.getByRole('dialog', { name: 'Collection details' });
  await expect(details.getByText('Design tools')).toBeVisible();
  await expect(details).not.toContainText('Not shared');
  await expect(details).not.toContainText('Members');
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();
});

test('a team link already in My Space offers to remove it, not to add it again', async ({
  page,
  favoriteToggler: person,
}) => {
  await signIn(page, person);
  const engineering = page.getByRole('region', { name: 'Engineering' });
  const mySpace = page.getByRole('region', { name: 'My Space' });
  const menu = page.getByRole('dialog', { name: 'GitHub' });
  const openMenu = () =>
    engineering.getByRole('button', { name: 'More actions for GitHub' }).click();

  await openMenu();
  await expect(menu.getByRole('list').getByRole('button')).toHaveText(['Info', 'Add to favorites']);
  await menu.getByRole('button', { name: 'Add to favorites' }).click();
  await expect(menu).toBeHidden();
  await expect(mySpace.getByRole('link', { name: /^GitHub/ })).toBeVisible();

  // The menu knows the link is a favorite now, as its details do.
  await openMenu();
  await expect(menu.getByRole('list').getByRole('button')).toHaveText([
    'Info',
    'Remove from favorites',
  ]);
  await menu.getByRole('button', { name: 'Remove from favorites' }).click();
  await expect(menu).toBeHidden();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(mySpace.getByRole('link', { name: /^GitHub/ })).toHaveCount(0);

  await openMenu();
  await expect(menu.getByRole('list').getByRole('button')).toHaveText(['Info', 'Add to favorites']);
});

test('a shared collection keeps its place in My Space and is marked for its owner and members', async ({
  page,
  request,
  browser,
  shareKeeper: owner,
  shareJoiner: member,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, owner));
  for (const name of ['Atlas', 'Borealis', 'Cirrus']) await calls.createCollection(name);
  const borealis = await calls.find('Borealis');

  await signIn(page, owner);
  const mySpace = page.getByRole('region', { name: 'My Space' });
  const tiles = mySpace.getByRole('button', { name: /^(Atlas|Borealis|Cirrus)$/ });
  await expect(tiles).toHaveText(['Atlas', 'Borealis', 'Cirrus']);
  await expect(mySpace.getByRole('img', { name: /^Shared collection/ })).toHaveCount(0);

  await calls.share(borealis.id, [member.id]);
  await page.reload();
  // Shared, it stays where its owner put it, and says it is shared.
  await expect(tiles).toHaveText(['Atlas', 'Borealis', 'Cirrus']);
  const shared = mySpace.getByRole('button', { name: 'Borealis', exact: true });
  await expect(shared).toHaveAccessibleDescription('Shared collection, 2 members');
  await expect(mySpace.getByRole('img', { name: 'Shared collection, 2 members' })).toBeVisible();
  await expect(mySpace.getByRole('button', { name: 'Atlas', exact: true })).not.toHaveAttribute(
    'aria-describedby',
  );
  await expectAccessible(page);

  // Escape closes the collection panel's menu, not the panel.
  await shared.click();
  const panel = page.getByRole('dialog', { name: 'Borealis' });
  await panel.getByRole('button', { name: 'Collection menu' }).click();
  await expect(panel.getByRole('button', { name: 'Details' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel.getByRole('button', { name: 'Details' })).toBeHidden();
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Its member sees the same mark.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, member);
  const theirs = memberPage
    .getByRole('region', { name: 'My Space' })
    .getByRole('button', { name: 'Borealis', exact: true });
  await expect(theirs).toHaveAccessibleDescription('Shared collection, 2 members');
  await memberContext.close();
});

test("'links in this app' lists each link once", async ({ page }) => {
  // Read only: the demo person's own GitHub link, with the team's GitHub link as a favorite.
  await signIn(page, { id: '', name: 'Dana Demo', email: DEMO_EMAIL });
  await page
    .getByRole('region', { name: 'My Space' })
    .getByRole('button', { name: 'More actions for My pull requests' })
    .click();
  await page
    .getByRole('dialog', { name: 'My pull requests' })
    .getByRole('button', { name: 'Info' })
    .click();
  const inApp = page
    .getByRole('dialog', { name: 'Link details' })
    .getByRole('region', { name: 'links in this app' });
  // The favorite and the team's link it points at are one link.
  await expect(inApp.getByRole('link', { name: /^GitHub/ })).toHaveCount(1);
});

test('on a phone the item menu is a sheet at the bottom, as tall as its actions', async ({
  page,
  phonePerson: person,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, person);
  await page
    .getByRole('region', { name: 'IT' })
    .getByRole('button', { name: 'More actions for Okta' })
    .click();
  const menu = page.getByRole('dialog', { name: 'Okta' });
  await expect(menu.getByRole('list').getByRole('button')).toHaveText(['Info', 'Add to favorites']);
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished)),
  );
  const box = (await menu.boundingBox())!;
  expect(box.width).toBe(360);
  expect(box.y + box.height).toBeCloseTo(740, 0);
  expect(box.height).toBeLessThan(740 / 2);
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
});

test('a token named by one long word wraps inside Settings instead of widening it', async ({
  page,
  longNamePerson: person,
}) => {
  await signIn(page, person);
  await page.getByRole('contentinfo').getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const tokens = settings.getByRole('region', { name: 'Access tokens' });
  const name = 'x'.repeat(100);
  await tokens.getByRole('textbox', { name: 'Token name' }).fill(name);
  await tokens.getByRole('button', { name: 'Create token' }).click();
  await expect(tokens.getByRole('button', { name: 'Done' })).toBeVisible();
  await expect(tokens.getByRole('list', { name: 'Your tokens' })).toContainText(name);
  // Nothing in the panel is wider than the panel: no sideways scrolling, nothing cut off.
  const frame = settings.locator('.dialog__frame');
  const widths = await frame.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
    widest: Math.max(
      ...[...element.querySelectorAll('*')].map((child) => child.getBoundingClientRect().right),
    ),
    right: element.getBoundingClientRect().right,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  expect(widths.widest).toBeLessThanOrEqual(widths.right + 0.5);
});
