import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { expect, test, type FreshServer } from './fresh-server';
import { expectAccessible } from './support';

const ORGANIZATION = 'Harbor Works';
const TEAM = 'Platform';
const ADMIN = { name: 'Ada Admin', email: 'ada@harbor.example', password: 'first-admin-pass' };
const EDITOR = { name: 'Ivy Invitee', email: 'ivy@harbor.example', password: 'invited-pass-1' };
const MEMBER = { name: 'Max Member', email: 'max@harbor.example', password: 'member-pass-1' };

/** Another person's browser: its own storage, and like every journey, nothing leaves the machine. */
async function newBrowser(browser: Browser, server: FreshServer): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const local = new URL(server.baseURL).origin;
  await context.route(
    (url) => url.origin !== local,
    (route) => route.abort('blockedbyclient'),
  );
  return context;
}

async function signInAs(page: Page, person: { email: string; password: string }) {
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByLabel('E-mail').fill(person.email);
  await modal.getByLabel('Password').fill(person.password);
  await modal.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** The console, a page of its own (decision 0077), opened from the portal's footer. */
async function openConsole(page: Page) {
  await page.getByRole('contentinfo').getByRole('button', { name: 'Administration' }).click();
  const console = page.getByRole('main', { name: 'Administration' });
  await expect(console).toBeVisible();
  return console;
}

/** A section of the console, by its link: the page's address follows. */
async function openTab(console: Locator, name: string) {
  const section = console.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
  await section.click();
  await expect(section).toHaveAttribute('aria-current', 'page');
  return console;
}

test('administration from the first run: setup, team, invitation, editor, suggestion, disabling, audit', async ({
  page,
  browser,
  freshServer,
}) => {
  // Waiting for the disabled person's portal to notice takes up to one menu refresh (30 s).
  test.setTimeout(150_000);

  // First run: the empty installation asks for its organization and first administrator.
  await page.goto('/');
  const setup = page.getByRole('region', { name: 'Set up Signpost' });
  await expect(setup.getByLabel('Setup code')).toBeVisible();
  await expectAccessible(page);
  await setup.getByLabel('Organization name').fill(ORGANIZATION);
  await setup.getByLabel('Your name').fill(ADMIN.name);
  await setup.getByLabel('E-mail').fill(ADMIN.email);
  await setup.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await setup.getByLabel('Setup code').fill(freshServer.setupCode);
  await setup.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page.getByText(`Hello ${ADMIN.name}`)).toBeVisible();

  // A team.
  const console = await openConsole(page);
  const teams = await openTab(console, 'Teams');
  await teams.getByLabel('New team name').fill(TEAM);
  await teams.getByRole('button', { name: 'Create team' }).click();
  await expect(teams.getByRole('status')).toHaveText(`Team ${TEAM} created.`);
  await expectAccessible(page);

  // A person invited (no mail is set up: the console shows the link to send), and a
  // colleague created with a password.
  const people = await openTab(console, 'People');
  await people.getByRole('button', { name: 'Invite', exact: true }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a person' });
  await invite.getByLabel('Name').fill(EDITOR.name);
  await invite.getByLabel('E-mail').fill(EDITOR.email);
  // Straight into the team, as a member.
  await invite.getByLabel('Team (optional)').selectOption({ label: TEAM });
  await expect(invite.getByLabel('Role in the team')).toHaveValue('member');
  await invite.getByRole('button', { name: 'Invite', exact: true }).click();
  // It says that no mail went, and why: the link is to be passed on by hand.
  await expect(invite.getByRole('status').filter({ hasText: 'No mail is set up' })).toHaveText(
    `No mail is set up: copy this link and send it to ${EDITOR.email}. It works for 7 days, once.`,
  );
  await expect(invite.getByText(/mail to .* (is queued|was sent)/)).toHaveCount(0);
  const link = await invite.getByLabel('Invitation link').inputValue();
  expect(link).toMatch(new RegExp(`^${freshServer.baseURL}/#invitation=.+`));
  await expect(invite.getByText(`${EDITOR.name} is in ${TEAM} (Member).`)).toBeVisible();
  await expectAccessible(page);
  // Its buttons stand apart, each with its own label.
  const copy = await invite.getByRole('button', { name: 'Copy the link' }).boundingBox();
  const close = invite.getByRole('button', { name: 'Back to People' });
  const closeBox = await close.boundingBox();
  expect(copy && closeBox && closeBox.y >= copy.y + copy.height).toBe(true);
  await close.click();

  await people.getByRole('button', { name: 'Create', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'Create a person' });
  await create.getByLabel('Name').fill(MEMBER.name);
  await create.getByLabel('E-mail').fill(MEMBER.email);
  await create.getByLabel('Password').fill(MEMBER.password);
  await create.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(create).toBeHidden();
  await expect(people.getByRole('row', { name: new RegExp(EDITOR.name) })).toContainText('Invited');
  await expect(people.getByRole('row', { name: new RegExp(MEMBER.name) })).toContainText('Active');
  await expectAccessible(page);

  // The member joins the team (the invited person is in it already).
  await openTab(console, 'Teams');
  await teams.getByRole('link', { name: `Manage ${TEAM}` }).click();
  await expect(page).toHaveURL(/\/console\/teams\/[A-Za-z0-9_-]{21}$/);
  const teamAddress = page.url();
  const members = teams.getByRole('region', { name: 'Members' });
  await expect(members.getByRole('checkbox', { name: `Select ${EDITOR.name}` })).toBeVisible();
  const find = teams.getByLabel('Find people by name or e-mail');
  const candidates = teams.getByRole('list', { name: 'Add people' });
  for (const person of [MEMBER]) {
    await find.fill(person.name);
    await candidates.getByRole('checkbox', { name: `Select ${person.name}` }).check();
    await teams.getByRole('button', { name: 'Add 1 selected' }).click();
    await expect(members.getByRole('checkbox', { name: `Select ${person.name}` })).toBeVisible();
    await expect(teams.getByRole('status')).toHaveText('1 person added.');
    // The search stays, and the person now shows as a member, no longer to be chosen.
    await expect(find).toHaveValue(person.name);
    await expect(candidates.getByRole('listitem').filter({ hasText: person.name })).toContainText(
      'already a member',
    );
    await expect(candidates.getByRole('checkbox', { name: `Select ${person.name}` })).toHaveCount(
      0,
    );
  }
  await expectAccessible(page);

  // The invited person accepts in their own browser: signed in, in the team's space.
  const editorContext = await newBrowser(browser, freshServer);
  const editor = await editorContext.newPage();
  await editor.goto(link);
  const welcome = editor.getByRole('dialog', { name: `Welcome to ${ORGANIZATION}` });
  await expect(welcome).toContainText(`You were invited as ${EDITOR.name} (${EDITOR.email})`);
  await expectAccessible(editor);
  await welcome.getByLabel('Password', { exact: true }).fill(EDITOR.password);
  await welcome.getByLabel('Confirm the password').fill(EDITOR.password);
  await welcome.getByRole('button', { name: 'Set my password and sign in' }).click();
  await expect(editor.getByText(`Hello ${EDITOR.name}`)).toBeVisible();
  const editorTeam = editor.getByRole('region', { name: TEAM });
  await expect(editorTeam).toBeVisible();
  await expect(editorTeam.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);
  await expect(editorTeam.getByRole('button', { name: 'Add collection' })).toHaveCount(0);

  // The administrator makes them editor.
  const ivyRow = members.getByRole('listitem').filter({ hasText: EDITOR.email });
  await ivyRow.getByRole('button', { name: 'Make editor' }).click();
  await expect(ivyRow).toContainText('Editor');
  await expect(teams.getByRole('status')).toHaveText(`${EDITOR.name} is now an editor of ${TEAM}.`);

  // The editor (their portal reloaded) starts the team's space in place: its first
  // collection, then a link in it.
  await editor.reload();
  await expect(editorTeam.getByText('This space has no collections yet')).toBeVisible();
  await editorTeam.getByRole('button', { name: 'Add collection' }).click();
  const addCollection = editor.getByRole('dialog', { name: 'Add collection' });
  await expect(addCollection.getByText(`In ${TEAM}`)).toBeVisible();
  await addCollection.getByLabel('Name', { exact: true }).fill('Tools');
  await addCollection.getByLabel('Description', { exact: true }).fill('What the team runs on');
  await expectAccessible(editor);
  await addCollection.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addCollection).toBeHidden();

  await editorTeam.getByRole('button', { name: 'Add', exact: true }).click();
  await editor.getByRole('button', { name: 'New Link' }).click();
  const addLink = editor.getByRole('dialog', { name: 'Add link' });
  await addLink.getByLabel('Link address').fill('https://ci.harbor.example');
  await addLink.getByLabel('Link name').fill('Build server');
  await addLink.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addLink).toBeHidden();
  await expect(editorTeam.getByRole('link', { name: /^Build server/ })).toBeVisible();

  // A member suggests a link to the team.
  const memberContext = await newBrowser(browser, freshServer);
  const member = await memberContext.newPage();
  await signInAs(member, MEMBER);
  const memberTeam = member.getByRole('region', { name: TEAM });
  await expect(memberTeam.getByRole('link', { name: /^Build server/ })).toBeVisible();
  // The team's info offers it: the first collection's details, with Suggest a link.
  await memberTeam.getByRole('button', { name: TEAM }).click();
  await member
    .getByRole('dialog', { name: TEAM })
    .getByRole('button', { name: 'Suggest a link' })
    .click();
  const details = member.getByRole('dialog', { name: 'Collection details' });
  await details.getByRole('button', { name: 'Suggest a link' }).click();
  await details.getByLabel('Link address').fill('https://status.harbor.example');
  await details.getByLabel('Link name').fill('Status page');
  await details.getByRole('button', { name: 'Send suggestion' }).click();
  await expect(details.getByRole('status')).toHaveText('Thank you, your suggestion was sent.');

  // The editor sees it waiting, and accepts it in their console (the Suggestions tab only).
  await editor.reload();
  await editorTeam.getByRole('button', { name: '1 suggested link waiting for a decision' }).click();
  const editorConsole = editor.getByRole('main', { name: 'Administration' });
  await expect(editor).toHaveURL(/\/console\/suggestions$/);
  await expect(
    editorConsole.getByRole('navigation', { name: 'Sections' }).getByRole('link'),
  ).toHaveText(['Suggestions', 'Broken links']);
  const suggestion = editorConsole.getByRole('listitem', { name: 'Status page' });
  await expect(suggestion).toContainText(`Suggested by ${MEMBER.name}`);
  await expectAccessible(editor);
  await suggestion.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(editorConsole.getByRole('status')).toHaveText('Status page was added.');
  await editor.getByRole('button', { name: 'Back to the portal' }).click();
  await expect(editor).toHaveURL(/\/$/);

  // Every member of the team sees it.
  await expect(editorTeam.getByRole('link', { name: /^Status page/ })).toBeVisible();
  await member.reload();
  await expect(memberTeam.getByRole('link', { name: /^Status page/ })).toBeVisible();
  await editor.reload();
  await expect(editorTeam.getByRole('link', { name: /^Status page/ })).toBeVisible();

  // The administrator, who is not in the team, opens its space from the team's page and adds
  // a link there, as its editors do.
  await page.goto(teamAddress);
  await expect(teams.getByRole('heading', { name: TEAM })).toBeVisible();
  await teams.getByRole('button', { name: "Open the team's space" }).click();
  await expect(page).toHaveURL(new RegExp(`${teamAddress}/space$`));
  const adminTeam = teams.getByRole('region', { name: TEAM });
  await expect(adminTeam.getByRole('link', { name: /^Status page/ })).toBeVisible();
  await expectAccessible(page);
  await adminTeam.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'New Link' }).click();
  const adminAdd = page.getByRole('dialog', { name: 'Add link' });
  await adminAdd.getByLabel('Link address').fill('https://docs.harbor.example');
  await adminAdd.getByLabel('Link name').fill('Handbook');
  await adminAdd.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(adminAdd).toBeHidden();
  await expect(adminTeam.getByRole('link', { name: /^Handbook/ })).toBeVisible();
  // A reload shows the same view; back returns to the team's page.
  await page.reload();
  await expect(adminTeam.getByRole('link', { name: /^Handbook/ })).toBeVisible();
  // The editor changes the space in their own browser: the administrator's view follows,
  // without a reload, as the portal's spaces do.
  await editor.reload();
  await editorTeam.getByRole('button', { name: 'Add', exact: true }).click();
  await editor.getByRole('button', { name: 'New Link' }).click();
  const editorAdd = editor.getByRole('dialog', { name: 'Add link' });
  await editorAdd.getByLabel('Link address').fill('https://oncall.harbor.example');
  await editorAdd.getByLabel('Link name').fill('On-call rota');
  await editorAdd.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(editorAdd).toBeHidden();
  await expect(adminTeam.getByRole('link', { name: /^On-call rota/ })).toBeVisible();
  await editorTeam.getByRole('button', { name: 'More actions for On-call rota' }).click();
  await editor
    .getByRole('dialog', { name: 'On-call rota' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(editorTeam.getByRole('link', { name: /^On-call rota/ })).toHaveCount(0);
  await expect(adminTeam.getByRole('link', { name: /^On-call rota/ })).toHaveCount(0);
  await expect(adminTeam.getByRole('link', { name: /^Handbook/ })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(teamAddress);
  await expect(teams.getByRole('button', { name: "Open the team's space" })).toBeVisible();
  await editor.reload();
  await expect(editorTeam.getByRole('link', { name: /^Handbook/ })).toBeVisible();

  // The administrator disables the editor, confirming what that does: their open portal is
  // signed out at its next menu refresh, without a reload.
  await openTab(console, 'People');
  const ivy = people.getByRole('row', { name: new RegExp(EDITOR.name) });
  await expect(ivy).toContainText('Active');
  await ivy.getByLabel(`Actions for ${EDITOR.name}`).click();
  await ivy.getByRole('button', { name: 'Disable' }).click();
  const confirmDisable = page.getByRole('dialog', { name: `Disable ${EDITOR.name}?` });
  await expect(confirmDisable).toContainText('can no longer sign in');
  await expectAccessible(page);
  await confirmDisable.getByRole('button', { name: `Disable ${EDITOR.name}` }).click();
  await expect(ivy).toContainText('Disabled');
  await expect(people.getByRole('status').first()).toHaveText(
    `${EDITOR.name} is disabled: signed out everywhere, and can no longer sign in.`,
  );
  await expect(editor.getByRole('dialog', { name: 'Sign in' })).toBeVisible({ timeout: 45_000 });
  await expect(editor.getByText(`Hello ${EDITOR.name}`)).toHaveCount(0);

  // The audit log shows each step: who did what to what.
  const audit = await openTab(console, 'Audit log');
  const steps: [who: string, action: string, target: string][] = [
    [ADMIN.name, 'Created the organization', ORGANIZATION],
    [ADMIN.name, 'Completed the first-run setup', ORGANIZATION],
    [ADMIN.name, 'Created a team', TEAM],
    [ADMIN.name, 'Invited a person', EDITOR.email],
    [ADMIN.name, 'Created a person', MEMBER.email],
    [ADMIN.name, 'Added a team member', TEAM],
    [`${ADMIN.name} <${ADMIN.email}> (as administrator)`, 'Added a link', 'Handbook'],
    [EDITOR.name, 'Accepted the invitation', EDITOR.email],
    [ADMIN.name, "Changed a team member's role", TEAM],
    [EDITOR.name, 'Added a collection', 'Tools'],
    [EDITOR.name, 'Added a link', 'Build server'],
    [MEMBER.name, 'Suggested a link', 'Status page'],
    [EDITOR.name, 'Accepted a suggestion', 'Status page'],
    [ADMIN.name, 'Disabled a person', EDITOR.email],
  ];
  for (const [who, action, target] of steps) {
    const rows = audit
      .getByRole('row')
      .filter({ has: audit.page().getByRole('cell', { name: action, exact: true }) })
      .filter({ hasText: who })
      .filter({ hasText: target });
    await expect(rows.first(), `${who}: ${action} ${target}`).toBeVisible();
  }
  await expect(
    audit.getByRole('row').filter({ hasText: 'Added a team member' }).filter({ hasText: TEAM }),
  ).toHaveCount(2);
  await expectAccessible(page);

  // Several people are put in a team at once from the People list.
  await openTab(console, 'Teams');
  await teams.getByLabel('New team name').fill('Support');
  await teams.getByRole('button', { name: 'Create team' }).click();
  await expect(teams.getByRole('status')).toHaveText('Team Support created.');
  await openTab(console, 'People');
  await people.getByRole('checkbox', { name: `Select ${MEMBER.name}` }).check();
  await people.getByRole('checkbox', { name: `Select ${ADMIN.name}` }).check();
  await people.getByRole('toolbar').getByRole('button', { name: 'Add to team' }).click();
  const addToTeam = page.getByRole('dialog', { name: 'Add the people chosen to a team' });
  await addToTeam
    .getByRole('combobox', { name: 'Team', exact: true })
    .selectOption({ label: 'Support' });
  await addToTeam.getByLabel('Role in the team').selectOption('editor');
  await expectAccessible(page);
  await addToTeam.getByRole('button', { name: 'Add to team' }).click();
  await expect(addToTeam).toBeHidden();
  await expect(people.getByRole('status').first()).toHaveText('2 people added to Support.');
  await expect(people.getByRole('row', { name: new RegExp(MEMBER.name) })).toContainText('Support');

  // A person's page has its own address: a reload keeps it, back returns to the list.
  await openTab(console, 'People');
  await people.getByRole('link', { name: MEMBER.name }).click();
  await expect(page).toHaveURL(/\/console\/people\/[A-Za-z0-9_-]{21}$/);
  await page.reload();
  await expect(people.getByRole('heading', { name: MEMBER.name })).toBeVisible();
  await expect(people).toContainText(MEMBER.email);
  await expect(people).toContainText(TEAM);
  await expectAccessible(page);
  await page.goBack();
  await expect(page).toHaveURL(/\/console\/people$/);

  // At phone width the console fits: nothing scrolls sideways, the audit log is a list of
  // entries whose words stay whole, and the last person's Actions menu shows every row.
  await page.setViewportSize({ width: 390, height: 640 });
  const wide = () => page.evaluate(() => document.documentElement.scrollWidth);
  expect(await wide()).toBeLessThanOrEqual(390);
  const lastPerson = people.getByRole('row').last();
  await lastPerson.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await lastPerson.getByLabel(/^Actions for /).click();
  for (const action of await lastPerson.locator('.people-actions__menu button').all()) {
    await expect(action).toBeInViewport();
  }
  await expectAccessible(page);
  await lastPerson.getByLabel(/^Actions for /).click();
  await openTab(console, 'Audit log');
  // A list of entries at this width: each value under the next, named.
  const created = audit
    .locator('td')
    .filter({ hasText: /^Created a team$/ })
    .first();
  await expect(created).toBeVisible();
  expect((await created.boundingBox())?.width ?? 0).toBeGreaterThan(300);
  expect(await wide()).toBeLessThanOrEqual(390);
  await expectAccessible(page);

  // Closing returns to the portal.
  await page.getByRole('button', { name: 'Back to the portal' }).click();
  await expect(page.getByText(`Hello ${ADMIN.name}`)).toBeVisible();
  await expect(console).toHaveCount(0);

  await editorContext.close();
  await memberContext.close();
});
