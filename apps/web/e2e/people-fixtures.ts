import { test as base, type TestFixture, type TestInfo } from '@playwright/test';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PeersResponse } from '@signpost/contract';
import { createToken, DEMO_EMAIL, type Person } from './support';

export { expect } from '@playwright/test';

type Role = { colleague: string } | { newHire: string; name: string };

/**
 * Who plays which part in the journeys. Colleagues are demo people, by the e-mail the demo
 * data gives them (`colleagues()` in apps/server/src/db/seed/demo-data.ts); a new hire is
 * known only to the demo identity provider until their first sign-in
 * (apps/server/src/modules/demo-idp/new-hires.ts). Every journey changes its people's data,
 * so each person plays one part, and each part is played in one journey (see `claim`).
 */
const CAST = {
  // sign-in.spec.ts
  wrongPasswordPerson: { colleague: 'bruno.khan@example.com' },
  fragmentTokenPerson: { colleague: 'bruno.schmidt@example.com' },
  pastedTokenPerson: { colleague: 'carmen.chen@example.com' },
  wrongTokenPerson: { colleague: 'elif.berg@example.com' },
  // portal.spec.ts
  browsingPerson: { colleague: 'daniel.lindqvist@example.com' },
  searchingPerson: { colleague: 'dmitri.garcia@example.com' },
  loggingOutPerson: { colleague: 'dmitri.silva@example.com' },
  revokedPerson: { colleague: 'dmitri.yilmaz@example.com' },
  // panels-add.spec.ts
  addingPerson: { colleague: 'ines.tanaka@example.com' },
  // server-messages.spec.ts
  refusedLinkPerson: { colleague: 'ivan.berg@example.com' },
  // panels-details.spec.ts
  favoritingPerson: { colleague: 'ivan.dubois@example.com' },
  detailsPerson: { colleague: 'ivan.khan@example.com' },
  // polish.spec.ts
  buddySeeker: { colleague: 'quinn.kim@example.com' },
  favoriteToggler: { colleague: 'pedro.silva@example.com' },
  shareKeeper: { colleague: 'umar.patel@example.com' },
  shareJoiner: { colleague: 'umar.schmidt@example.com' },
  phonePerson: { colleague: 'tara.novak@example.com' },
  longNamePerson: { colleague: 'felix.novak@example.com' },
  // drag-drop.spec.ts
  dragDropPerson: { colleague: 'jonas.ivanova@example.com' },
  touchDragPerson: { colleague: 'julia.novak@example.com' },
  // sharing.spec.ts: the sharer and the two people it picks past the first page of 20.
  sharer: { colleague: 'jonas.kim@example.com' },
  firstSharee: { colleague: 'emma.okafor@example.com' },
  secondSharee: { colleague: 'hannah.lindqvist@example.com' },
  sharingOwner: { colleague: 'jonas.martin@example.com' },
  sharingMember: { colleague: 'julia.costa@example.com' },
  sharingOtherMember: { colleague: 'julia.murphy@example.com' },
  // screenshots.spec.ts
  screenshotPerson: { colleague: 'liam.dubois@example.com' },
  // sso.spec.ts
  ssoPerson: { colleague: 'nadia.martin@example.com' },
  newHire: { newHire: 'newhire6@example.com', name: 'Lena Vogel' },
  // sso-groups.spec.ts: a new hire in the demo provider's dept-sales group.
  groupsNewHire: { newHire: 'newhire7@example.com', name: 'Ravi Iyer' },
  // settings.spec.ts
  accessTokenPerson: { colleague: 'noah.garcia@example.com' },
  twoSessionsPerson: { colleague: 'noah.patel@example.com' },
  passwordChangePerson: { colleague: 'olga.moreau@example.com' },
  // second-factor.spec.ts
  secondFactorPerson: { colleague: 'noah.schmidt@example.com' },
  // sso-second-factor.spec.ts
  ssoSecondFactorPerson: { colleague: 'ximena.walsh@example.com' },
  // reauthentication.spec.ts
  reauthenticationPerson: { colleague: 'yusuf.haddad@example.com' },
  // undo.spec.ts
  undoLinkPerson: { colleague: 'samir.rossi@example.com' },
  undoCollectionPerson: { colleague: 'tara.demir@example.com' },
  undoTrashPerson: { colleague: 'quinn.ivanova@example.com' },
  // search.spec.ts: in Engineering and in the Launch checklist share.
  rankingSearchPerson: { colleague: 'amara.okafor@example.com' },
  // live-updates.spec.ts: a share's owner and member, a team's editor and member.
  liveShareOwner: { colleague: 'carmen.ivanova@example.com' },
  liveShareMember: { colleague: 'grace.patel@example.com' },
  liveTeamEditor: { colleague: 'hiro.singh@example.com' },
  liveTeamMember: { colleague: 'carmen.martin@example.com' },
  // installable.spec.ts and opensearch.spec.ts
  offlinePerson: { colleague: 'amara.walsh@example.com' },
  addressBarSearcher: { colleague: 'ben.haddad@example.com' },
  // extension.spec.ts: the extension's person, a member of a team whose editor sees the
  // suggestion.
  extensionPerson: { colleague: 'kemi.adeyemi@example.com' },
  extensionTeamEditor: { colleague: 'maya.demir@example.com' },
  // bookmarklet.spec.ts
  bookmarkletPerson: { colleague: 'rosa.petrov@example.com' },
  unsafeBookmarkletPerson: { colleague: 'samir.chen@example.com' },
  bookmarkletSettingsPerson: { colleague: 'tara.cohen@example.com' },
  // icons.spec.ts
  iconPerson: { colleague: 'liam.rossi@example.com' },
  // curating.spec.ts: one journey per role and width (1280 and 390 px), each with a second
  // portal that follows. A person in My Space, with a broken link of their own in the demo
  // (its second portal is their own second window)…
  personCurator1280: { colleague: 'zoe.martin@example.com' },
  personCurator390: { colleague: 'aiko.alvarez@example.com' },
  // …a team's editor and a member: Sales and People & Culture members, made editors by the
  // journey, each mending one of their team's broken links in the demo…
  teamCurator1280: { colleague: 'wei.yilmaz@example.com' },
  teamWatcher1280: { colleague: 'bruno.berg@example.com' },
  teamCurator390: { colleague: 'ines.sato@example.com' },
  teamWatcher390: { colleague: 'chloe.murphy@example.com' },
  // …and an administrator (the demo's, and a colleague made one by the journey), in neither
  // of those teams, with a member of the organization who is in the team they open.
  organizationCurator1280: { colleague: 'amara.zhang@example.com' },
  organizationWatcher1280: { colleague: 'kai.patel@example.com' },
  organizationCurator390: { colleague: 'felix.murphy@example.com' },
  organizationWatcher390: { colleague: 'daniel.alvarez@example.com' },
  // link-health.spec.ts: the demo's colleague with a moved and a broken link of their own.
  linkHealthPerson: { colleague: 'quinn.zhang@example.com' },
  // shared-browser.spec.ts: a signed-in person sent a sign-in link of another's account, and
  // a person who leaves a shared computer (decision 0080).
  linkReceiver: { colleague: 'chloe.moreau@example.com' },
  linkSender: { colleague: 'gabriel.chen@example.com' },
  sharedComputerPerson: { colleague: 'umar.khan@example.com' },
  // team-share.spec.ts: a collection shared with a team; a teammate who is taken out of the
  // team, and a colleague who joins it.
  teamShareOwner: { colleague: 'farah.petrov@example.com' },
  teamShareMate: { colleague: 'hannah.cohen@example.com' },
  teamShareJoiner: { colleague: 'kai.yilmaz@example.com' },
  // bookmarks.spec.ts: per file imported, the person who imports it and a colleague who
  // imports their export.
  chromeImporter: { colleague: 'vera.singh@example.com' },
  chromeReimporter: { colleague: 'wei.sato@example.com' },
  firefoxImporter: { colleague: 'ximena.kim@example.com' },
  firefoxReimporter: { colleague: 'yusuf.adeyemi@example.com' },
  linkwardenImporter: { colleague: 'zoe.rossi@example.com' },
  linkwardenReimporter: { colleague: 'aiko.demir@example.com' },
} satisfies Record<string, Role>;

type Part = keyof typeof CAST;
const emailOf = (role: Role) => ('colleague' in role ? role.colleague : role.newHire);

// One person, one part: a second part for the same e-mail fails every journey at once.
{
  const parts = new Map<string, string>();
  for (const [part, role] of Object.entries(CAST) as [Part, Role][]) {
    const email = emailOf(role);
    const earlier = parts.get(email);
    if (earlier) throw new Error(`${email} is cast as both ${earlier} and ${part}`);
    if (email === DEMO_EMAIL) throw new Error(`${part}: the demo person is every journey's`);
    parts.set(email, part);
  }
}

/**
 * One part, one journey: the first journey to ask for a part claims it for the run, and
 * another journey asking for it fails with both names. The claims are files in the run's
 * output folder (Playwright empties it at the start of each run), so that journeys in
 * different workers see each other's; a retry of the same journey keeps its claim.
 */
function claim(part: Part, testInfo: TestInfo) {
  const folder = path.join(testInfo.project.outputDir, '.cast');
  mkdirSync(folder, { recursive: true });
  const journey = testInfo.titlePath.join(' › ');
  const holder = claimOnce(path.join(folder, part), journey);
  if (holder !== journey) {
    throw new Error(
      `${part} already plays in “${holder}”; give “${journey}” a person of its own in e2e/people-fixtures.ts`,
    );
  }
}

/** Writes the claim unless there is one; returns the journey that holds it. */
function claimOnce(file: string, journey: string): string {
  // Written aside, then linked into place: a claim is never seen half written.
  const draft = `${file}.${process.pid}`;
  writeFileSync(draft, journey);
  try {
    linkSync(draft, file);
    return journey;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(file, 'utf8');
  } finally {
    unlinkSync(draft);
  }
}

/** Finds a demo person by e-mail in the peers list, as the demo person sees it. */
type FindColleague = (email: string) => Promise<Person>;

type People = { [P in Part]: Person };

/** The person who plays a part in this journey, claimed for it. */
async function cast(part: Part, findColleague: FindColleague, testInfo: TestInfo) {
  claim(part, testInfo);
  const role: Role = CAST[part];
  // A new hire is not in Signpost yet: the journey's own sign-in creates them.
  return 'colleague' in role
    ? await findColleague(role.colleague)
    : { id: '', name: role.name, email: role.newHire };
}

const personFixture =
  (part: Part): TestFixture<Person, { findColleague: FindColleague }> =>
  async ({ findColleague }, provide, testInfo) => {
    await provide(await cast(part, findColleague, testInfo));
  };

/** Casts a part by its name, for journeys whose people depend on a parameter (a width). */
type Cast = (part: Part) => Promise<Person>;

const people = Object.fromEntries(
  (Object.keys(CAST) as Part[]).map((part) => [part, personFixture(part)]),
) as { [P in Part]: TestFixture<Person, { findColleague: FindColleague }> };

/**
 * The journeys' test: Playwright's fixtures with a browser context that stays on this
 * machine, and each part of the cast by name, a demo person found by e-mail, so that a
 * journey says whom it needs and gets them alone.
 */
export const test = base.extend<People & { findColleague: FindColleague; cast: Cast }>({
  // Journeys stay on this machine: a request to any other origin (the demo links open real
  // sites in a new tab) is refused at once instead of waiting for a network that is not
  // there, and no journey depends on, or sends traffic to, the outside world.
  context: async ({ context, baseURL }, provide) => {
    const local = new URL(baseURL ?? 'http://127.0.0.1').origin;
    await context.route(
      (url) => url.origin !== local,
      (route) => route.abort('blockedbyclient'),
    );
    await provide(context);
  },
  findColleague: async ({ request }, provide) => {
    // One session of the demo person per journey, made at the first look-up.
    let token: Promise<string> | undefined;
    await provide(async (email) => {
      token ??= createToken(request, DEMO_EMAIL);
      const response = await request.get(
        `/api/consumer/peers?limit=20&query=${encodeURIComponent(email)}`,
        { headers: { Authorization: `Bearer ${await token}` } },
      );
      if (response.status() !== 200) throw new Error(`peers: ${response.status()}`);
      const { items } = (await response.json()) as PeersResponse;
      const person = items.find((item) => item.email === email);
      if (!person) throw new Error(`the demo data has no colleague ${email}`);
      return person;
    });
  },
  cast: async ({ findColleague }, provide, testInfo) => {
    await provide((part) => cast(part, findColleague, testInfo));
  },
  ...people,
});
