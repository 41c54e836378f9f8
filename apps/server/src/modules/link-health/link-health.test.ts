import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { MIGRATIONS_DIR } from '../../db/migrate.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  createCollection,
  createLink,
  createOrganization,
  createUser,
} from '../../../test/factories.ts';
import { createCast, createSpaces, ROLES, type Role } from '../../../test/support/world.ts';
import type { CheckOutcome } from './check.ts';
import { answer, fakeFetcher, noAnswer } from '../../../test/support/fake-fetcher.ts';
import { type DueCheck, type Viewer } from './link-health.repository.ts';
import { LINK_CHECK_LEASE_SECONDS, linkCheckRound } from './link-health.worker.ts';
import { CONFIRM_FAILURE_SECONDS } from './state.ts';

const { app, db, repositories } = await createTestApp();
const checks = repositories.linkHealth;
const org = await createOrganization(db);
const person = await createUser(db, org.id);
const own = await createCollection(db, { user: person });
const DAY = 24 * 3600;

interface CheckRow {
  url: string;
  state: string;
  failures: number;
  status: number | null;
  failureKind: string | null;
  movedTo: string | null;
  tries: number;
  dueIn: number;
  changedAgo: number;
  checked: boolean;
}
const rowOf = async (linkId: string) =>
  (
    await selectRows<CheckRow>(
      db,
      sql`SELECT url, state, failures, status, failure_kind AS "failureKind",
                 moved_to AS "movedTo", tries, checked_at IS NOT NULL AS checked,
                 extract(epoch FROM now() - state_changed_at)::float8 AS "changedAgo",
                 CASE WHEN due_at = 'infinity' THEN 'Infinity'::float8
                      ELSE extract(epoch FROM due_at - now())::float8 END AS "dueIn"
          FROM link_checks WHERE link_id = ${linkId}`,
    )
  )[0];

/** Takes every due link, as a round does, and answers the one asked for. */
const take = async (linkId: string): Promise<DueCheck> => {
  const due = await checks.takeDue(db, 10_000, 600);
  const link = due.find((d) => d.linkId === linkId);
  if (!link) throw new Error(`${linkId} was not due`);
  return link;
};
/** Makes a link due again at once (a test's stand-in for time passing). */
const dueNow = (linkId: string) =>
  db.execute(sql`UPDATE link_checks SET due_at = now() WHERE link_id = ${linkId}`);
const recordOnce = async (linkId: string, outcome: CheckOutcome) => {
  await dueNow(linkId);
  return checks.record(db, await take(linkId), outcome, { intervalSeconds: DAY });
};
const FINE: CheckOutcome = { kind: 'fine', status: 200, url: 'https://x.example.com/' };
const NOT_FOUND: CheckOutcome = {
  kind: 'failure',
  failure: 'http',
  status: 404,
  message: 'the site answered 404',
};

describe('the rows the migration keeps', () => {
  it('gives the links there were before it a row each, due at once unless not http(s)', async () => {
    const web = await createLink(db, own, { url: 'https://before.example.com/' });
    const mail = await createLink(db, own, { url: 'mailto:help@example.com' });
    // As if these two were there before the migration: its statement for the links there
    // were makes their rows again (the others' it leaves, as they are).
    await db.execute(sql`DELETE FROM link_checks WHERE link_id IN (${web.id}, ${mail.id})`);
    const migration = await readFile(`${MIGRATIONS_DIR}0015_link_checks.sql`, 'utf8');
    const backfill = /INSERT INTO link_checks[^;]*FROM links;/.exec(migration)?.[0];
    expect(backfill).toBeDefined();
    await db.execute(sql.raw(backfill!.replace(/;$/, ' ON CONFLICT (link_id) DO NOTHING')));
    expect(await rowOf(web.id)).toMatchObject({ state: 'unknown', url: web.url, failures: 0 });
    expect((await rowOf(web.id))!.dueIn).toBeLessThanOrEqual(0);
    expect(await rowOf(mail.id)).toMatchObject({ state: 'unknown', dueIn: Infinity });
  });

  it('makes a new http or https link unknown and due at once, and never a mailto: one', async () => {
    const web = await createLink(db, own, { url: 'http://intranet.example.com/' });
    const mail = await createLink(db, own, { url: 'mailto:desk@example.com' });
    const phone = await createLink(db, own, { url: 'tel:+3212345678' });
    expect(await rowOf(web.id)).toMatchObject({ state: 'unknown', checked: false, tries: 0 });
    expect((await rowOf(web.id))!.dueIn).toBeLessThanOrEqual(0);
    for (const link of [mail, phone]) {
      expect(await rowOf(link.id)).toMatchObject({ state: 'unknown', dueIn: Infinity });
    }
    const due = (await checks.takeDue(db, 10_000, 600)).map((d) => d.linkId);
    expect(due).toContain(web.id);
    expect(due).not.toContain(mail.id);
    expect(due).not.toContain(phone.id);
  });

  it('starts over when the address changes, and not when anything else does', async () => {
    const link = await createLink(db, own, { url: 'https://old.example.com/' });
    await recordOnce(link.id, NOT_FOUND);
    await recordOnce(link.id, NOT_FOUND);
    expect(await rowOf(link.id)).toMatchObject({ state: 'broken', failures: 2, status: 404 });

    await db.execute(sql`UPDATE links SET url = url, name = 'Renamed' WHERE id = ${link.id}`);
    expect(await rowOf(link.id)).toMatchObject({ state: 'broken', failures: 2 });
    expect((await rowOf(link.id))!.dueIn).toBeGreaterThan(0);

    await db.execute(sql`UPDATE links SET url = 'https://new.example.com/' WHERE id = ${link.id}`);
    expect(await rowOf(link.id)).toMatchObject({
      url: 'https://new.example.com/',
      state: 'unknown',
      failures: 0,
      status: null,
      failureKind: null,
      checked: false,
      tries: 0,
    });
    expect((await rowOf(link.id))!.dueIn).toBeLessThanOrEqual(0);

    await db.execute(sql`UPDATE links SET url = 'mailto:x@example.com' WHERE id = ${link.id}`);
    expect(await rowOf(link.id)).toMatchObject({ state: 'unknown', dueIn: Infinity });
  });

  it('goes with its link', async () => {
    const link = await createLink(db, own);
    await db.execute(sql`DELETE FROM links WHERE id = ${link.id}`);
    expect(await rowOf(link.id)).toBeUndefined();
  });
});

describe('recording checks', () => {
  it('takes a due link once: a second round finds it leased', async () => {
    const link = await createLink(db, own, { url: 'https://once.example.com/' });
    expect((await take(link.id)).tries).toBe(1);
    expect((await checks.takeDue(db, 10_000, 600)).map((d) => d.linkId)).not.toContain(link.id);
    expect((await rowOf(link.id))!.dueIn).toBeGreaterThan(590);
  });

  it('calls a link broken after two failures in a row, checked again soon after the first', async () => {
    const link = await createLink(db, own, { url: 'https://flaky.example.com/' });
    expect(await recordOnce(link.id, FINE)).toMatchObject({ state: 'fine', changed: true });
    expect((await rowOf(link.id))!.dueIn).toBeGreaterThan(DAY - 60);

    expect(await recordOnce(link.id, NOT_FOUND)).toMatchObject({ state: 'fine', failures: 1 });
    const once = (await rowOf(link.id))!;
    expect(once).toMatchObject({ state: 'fine', failures: 1, status: 404, failureKind: 'http' });
    expect(once.dueIn).toBeGreaterThan(CONFIRM_FAILURE_SECONDS - 60);
    expect(once.dueIn).toBeLessThanOrEqual(CONFIRM_FAILURE_SECONDS);

    // "Since when broken" starts with the second failure.
    await db.execute(
      sql`UPDATE link_checks SET state_changed_at = now() - interval '40 days'
          WHERE link_id = ${link.id}`,
    );
    expect(await recordOnce(link.id, NOT_FOUND)).toMatchObject({ state: 'broken', changed: true });
    const broken = (await rowOf(link.id))!;
    expect(broken).toMatchObject({ state: 'broken', failures: 2, tries: 0 });
    expect(broken.changedAgo).toBeLessThan(60);
    expect(broken.dueIn).toBeGreaterThan(DAY - 60);

    // A further failure keeps "since".
    await db.execute(
      sql`UPDATE link_checks SET state_changed_at = now() - interval '30 days'
          WHERE link_id = ${link.id}`,
    );
    await recordOnce(link.id, NOT_FOUND);
    expect((await rowOf(link.id))!.changedAgo).toBeGreaterThan(29 * DAY);

    expect(await recordOnce(link.id, FINE)).toMatchObject({ state: 'fine', changed: true });
    expect(await rowOf(link.id)).toMatchObject({ state: 'fine', failures: 0, failureKind: null });
  });

  it('keeps what a moved link moved to, and what the refusal of an internal address was', async () => {
    const link = await createLink(db, own, { url: 'http://moved.example.com/' });
    await recordOnce(link.id, { kind: 'moved', status: 200, to: 'https://moved.example.com/' });
    expect(await rowOf(link.id)).toMatchObject({
      state: 'moved',
      movedTo: 'https://moved.example.com/',
    });
    await recordOnce(link.id, {
      kind: 'refused',
      reason: 'internal-address',
      message: 'resolves to 10.0.0.5',
    });
    expect(await rowOf(link.id)).toMatchObject({
      state: 'unknown',
      movedTo: null,
      failureKind: 'internal-address',
    });
    expect(await checks.stateOf(db, org.id, link.id)).toMatchObject({
      state: 'unknown',
      failure: 'resolves to 10.0.0.5',
      checkedAt: expect.any(Date),
      since: expect.any(Date),
    });
    expect(await checks.stateOf(db, org.id, 'no-such-link')).toBeNull();
  });

  it('changes only when it is due after an inconclusive check, backing off while they go on', async () => {
    const link = await createLink(db, own, { url: 'https://busy.example.com/' });
    await recordOnce(link.id, FINE);
    const before = (await rowOf(link.id))!;
    const busy: CheckOutcome = {
      kind: 'inconclusive',
      status: 429,
      retryAfterSeconds: null,
      message: 'slow down',
    };
    expect(await recordOnce(link.id, busy)).toMatchObject({ conclusive: false });
    const first = (await rowOf(link.id))!;
    expect(first).toMatchObject({ state: 'fine', status: 200, failureKind: null, tries: 1 });
    expect(first.changedAgo).toBeGreaterThanOrEqual(before.changedAgo);
    expect(first.dueIn).toBeGreaterThan(29 * 60);
    expect(first.dueIn).toBeLessThanOrEqual(30 * 60);
    await recordOnce(link.id, busy);
    const second = (await rowOf(link.id))!;
    expect(second.tries).toBe(2);
    expect(second.dueIn).toBeGreaterThan(59 * 60);
  });

  it('writes nothing for an address that changed while it was checked', async () => {
    const link = await createLink(db, own, { url: 'https://before.example.com/a' });
    const taken = await take(link.id);
    await db.execute(
      sql`UPDATE links SET url = 'https://after.example.com/a' WHERE id = ${link.id}`,
    );
    expect(await checks.record(db, taken, NOT_FOUND, { intervalSeconds: DAY })).toBeNull();
    expect(await rowOf(link.id)).toMatchObject({
      url: 'https://after.example.com/a',
      state: 'unknown',
      failures: 0,
    });
  });

  it('never gives two takers the same link', async () => {
    await checks.takeDue(db, 100_000, 3600);
    const links = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        createLink(db, own, { url: `https://many.example.com/${n}` }),
      ),
    );
    const [a, b, c] = await Promise.all([
      checks.takeDue(db, 12, 600),
      checks.takeDue(db, 12, 600),
      checks.takeDue(db, 12, 600),
    ]);
    const taken = [...a!, ...b!, ...c!].map((d) => d.linkId);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.filter((id) => links.some((l) => l.id === id))).toHaveLength(30);
  });
});

// The people and places of the permission tests, with a link needing someone in each place.
const cast = await createCast(db);
const spaces = await createSpaces(db, cast);
const add = (place: { id: string; organizationId: string }, by: string | null) =>
  createLink(db, place, { createdBy: by, url: `https://broken.example.com/${Math.random()}` });
const links = {
  own: await add(spaces.own, cast.owner.id),
  ownFine: await add(spaces.own, cast.owner.id),
  sharedByOwner: await add(spaces.shared, cast.owner.id),
  sharedByMember: await add(spaces.sharedSub, cast.member.id),
  colleagues: await add(spaces.colleagues, cast.colleague.id),
  team: await add(spaces.team, cast.teamEditor.id),
  teamSub: await add(spaces.teamSub, cast.teamMember.id),
  otherTeam: await add(spaces.otherTeam, null),
  organization: await add(spaces.organization, cast.orgAdmin.id),
  otherOrganization: await add(spaces.otherOrganization, cast.outsider.id),
};
type Name = keyof typeof links;
const mark = async (name: Name, state: 'broken' | 'moved') =>
  db.execute(
    sql`UPDATE link_checks
        SET state = ${state}, failures = ${state === 'broken' ? 2 : 0}, status = 404,
            moved_to = ${state === 'moved' ? 'https://new.example.com/' : null},
            state_changed_at = now() - interval '3 days'
        WHERE link_id = ${links[name].id}`,
  );
for (const name of Object.keys(links) as Name[]) {
  if (name !== 'ownFine') await mark(name, name === 'teamSub' ? 'moved' : 'broken');
}
await db.execute(sql`UPDATE link_checks SET state = 'fine' WHERE link_id = ${links.ownFine.id}`);
const viewer = (role: Role): Viewer => ({
  userId: cast[role].id,
  organizationId: cast[role].organizationId,
  role: cast[role].role,
});
const nameOf = (id: string) => (Object.keys(links) as Name[]).find((name) => links[name].id === id);
const listed = async (role: Role) =>
  Object.fromEntries(
    (await checks.needingAttention(db, viewer(role))).map((l) => [nameOf(l.linkId), l.canChange]),
  );

describe('who is told about a link that needs someone', () => {
  // Who sees which mark, and who may fix it (true) or is only told (false).
  const expected: Record<Role, Partial<Record<Name, boolean>>> = {
    owner: { own: true, sharedByOwner: true, sharedByMember: true },
    member: { sharedByOwner: false, sharedByMember: true },
    colleague: { colleagues: true },
    teamMember: {},
    teamEditor: { team: true, teamSub: true },
    orgAdmin: { team: true, teamSub: true, otherTeam: true, organization: true },
    outsider: { otherOrganization: true },
  };

  it.each(ROLES)('shows the %s the links they can fix, and no others', async (role) => {
    expect(await listed(role)).toEqual(expected[role]);
  });

  it('agrees with the access layer on who may change each link', async () => {
    const { access } = app.services;
    for (const role of ROLES) {
      const me = { ...viewer(role) } as AuthContext;
      const mine = await checks.needingAttention(db, viewer(role));
      for (const name of Object.keys(links) as Name[]) {
        const may = await access.changeableLink(db, me, links[name].id).then(
          () => true,
          () => false,
        );
        const row = mine.find((l) => l.linkId === links[name].id);
        if (name === 'ownFine') expect(row).toBeUndefined();
        else expect([role, name, row?.canChange ?? false]).toEqual([role, name, may]);
      }
    }
  });

  it('stops telling a member who left the share', async () => {
    await db.execute(
      sql`DELETE FROM share_members WHERE share_id = ${spaces.share.id}
          AND user_id = ${cast.member.id}`,
    );
    expect(await listed('member')).toEqual({});
    expect(await listed('owner')).toEqual(expected.owner);
  });

  it('says what the link needs, where it is, and since when', async () => {
    const [row] = (await checks.needingAttention(db, viewer('teamEditor'))).filter(
      (l) => l.linkId === links.teamSub.id,
    );
    expect(row).toMatchObject({
      name: links.teamSub.name,
      url: links.teamSub.url,
      collectionId: spaces.teamSub.id,
      collectionName: spaces.teamSub.name,
      space: 'team',
      teamName: cast.team.name,
      state: 'moved',
      movedTo: 'https://new.example.com/',
      canChange: true,
    });
    expect(Date.now() - row!.since.getTime()).toBeGreaterThan(2.9 * DAY * 1000);
    const [personal] = await checks.needingAttention(db, viewer('colleague'));
    expect(personal).toMatchObject({ space: 'personal', teamName: null, state: 'broken' });
  });

  it('lists an organization’s broken team and organization links for its administrators', async () => {
    const broken = await checks.brokenInOrganization(db, cast.org.id);
    expect(broken.map((l) => nameOf(l.linkId)).sort()).toEqual(
      ['organization', 'otherTeam', 'team'].sort(),
    );
    expect(broken.find((l) => l.linkId === links.team.id)).toMatchObject({
      space: 'team',
      spaceName: cast.team.name,
      teamId: cast.team.id,
      collectionName: spaces.team.name,
      status: 404,
    });
    expect(broken.find((l) => l.linkId === links.organization.id)).toMatchObject({
      space: 'organization',
      spaceName: cast.org.name,
      teamId: null,
    });
    expect(broken[0]!.brokenSince).toBeInstanceOf(Date);
    expect((await checks.brokenInOrganization(db, cast.otherOrg.id)).map((l) => l.linkId)).toEqual([
      links.otherOrganization.id,
    ]);
    // An editor's teams only, chosen in the query (before its limit).
    expect(
      (await checks.brokenInOrganization(db, cast.org.id, [cast.team.id])).map((l) =>
        nameOf(l.linkId),
      ),
    ).toEqual(['team']);
    expect(await checks.brokenInOrganization(db, cast.org.id, [])).toEqual([]);
  });
});

describe('a round', () => {
  const quiet = { info() {}, error() {} } as never;
  const place = async () => createCollection(db, { user: person });

  it('counts no failure when no site answers at all: the server, not the sites, is cut off', async () => {
    await checks.takeDue(db, 100_000, 3600);
    const where = await place();
    const cutOff = await Promise.all(
      ['a', 'b', 'c'].map((host) => createLink(db, where, { url: `https://${host}.cut.example/` })),
    );
    const warned: string[] = [];
    const log = {
      info() {},
      error() {},
      warn: (_: unknown, message: string) => warned.push(message),
    } as never;
    const offline = fakeFetcher({}, (url) => noAnswer(url, 'dns'));
    const first = await linkCheckRound({
      db,
      checks,
      fetcher: offline,
      log,
      intervalSeconds: DAY,
      perHostIntervalMs: 0,
    });
    expect(first).toMatchObject({ checked: 3, failed: 0, broken: 0, inconclusive: 3, offline: 3 });
    expect(warned).toEqual([expect.stringContaining('cut off from the network')]);
    for (const link of cutOff)
      expect(await rowOf(link.id)).toMatchObject({ state: 'unknown', failures: 0 });

    // When one site answers, the others' failures are theirs, and count.
    await checks.takeDue(db, 100_000, 3600);
    const alive = await createLink(db, where, { url: 'https://alive.example/' });
    for (const link of cutOff) await dueNow(link.id);
    const partly = fakeFetcher(
      { 'HEAD https://alive.example/': answer('https://alive.example/', 200) },
      (url) => noAnswer(url, 'dns'),
    );
    const second = await linkCheckRound({
      db,
      checks,
      fetcher: partly,
      log,
      intervalSeconds: DAY,
      perHostIntervalMs: 0,
    });
    expect(second).toMatchObject({ checked: 4, fine: 1, failed: 3, offline: 0 });
    expect(await rowOf(alive.id)).toMatchObject({ state: 'fine' });
    for (const link of cutOff) expect(await rowOf(link.id)).toMatchObject({ failures: 1 });
  });

  it('asks each host at its pace, with HEAD then GET, and records what it found', async () => {
    // Nothing else due: this round sees only the links below.
    await checks.takeDue(db, 100_000, 3600);
    const where = await place();
    const paced = await Promise.all(
      [1, 2, 3].map((n) => createLink(db, where, { url: `https://paced.example.com/${n}` })),
    );
    const gone = await createLink(db, where, { url: 'https://gone.example.com/' });
    const intranet = await createLink(db, where, { url: 'https://intranet.example.com/' });
    const movedLink = await createLink(db, where, { url: 'http://moved.example.com/' });
    const faulty = await createLink(db, where, { url: 'https://faulty.example.com/' });
    const mail = await createLink(db, where, { url: 'mailto:someone@example.com' });
    const fetcher = fakeFetcher({
      'HEAD https://gone.example.com/': answer('https://gone.example.com/', 405),
      'GET https://gone.example.com/': answer('https://gone.example.com/', 404),
      'HEAD https://intranet.example.com/': noAnswer(
        'https://intranet.example.com/',
        'internal-address',
      ),
      'HEAD http://moved.example.com/': answer('http://moved.example.com/', 200, {
        redirects: [
          { url: 'http://moved.example.com/', status: 301, location: 'https://moved.example.com/' },
        ],
      }),
      'HEAD https://faulty.example.com/': () => {
        throw new Error('a fault of ours');
      },
    });
    const result = await linkCheckRound({
      db,
      checks,
      fetcher,
      log: quiet,
      intervalSeconds: DAY,
      perHostIntervalMs: 150,
    });
    expect(result).toEqual({
      checked: 7,
      fine: 3,
      moved: 1,
      broken: 0,
      failed: 1,
      unknown: 1,
      inconclusive: 0,
      stale: 0,
      errors: 1,
      released: 0,
      offline: 0,
    });
    const times = fetcher.calls.filter((c) => c.url.includes('paced')).map((c) => c.at);
    expect(times).toHaveLength(3);
    for (let i = 1; i < times.length; i++) {
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(140);
    }
    // The GET after a HEAD keeps the host's pace too.
    const [head, get] = fetcher.calls.filter((c) => c.url.includes('gone')).map((c) => c.at);
    expect(get! - head!).toBeGreaterThanOrEqual(140);
    expect(fetcher.calls.some((c) => c.url.startsWith('mailto:'))).toBe(false);

    for (const link of paced) expect(await rowOf(link.id)).toMatchObject({ state: 'fine' });
    expect(await rowOf(gone.id)).toMatchObject({ state: 'unknown', failures: 1, status: 404 });
    expect((await rowOf(gone.id))!.dueIn).toBeLessThanOrEqual(CONFIRM_FAILURE_SECONDS);
    expect(await rowOf(intranet.id)).toMatchObject({
      state: 'unknown',
      failureKind: 'internal-address',
    });
    expect(await rowOf(movedLink.id)).toMatchObject({
      state: 'moved',
      movedTo: 'https://moved.example.com/',
    });
    // The fault leaves the link with its lease: it is checked again later.
    expect(await rowOf(faulty.id)).toMatchObject({ state: 'unknown', checked: false });
    expect((await rowOf(faulty.id))!.dueIn).toBeGreaterThan(LINK_CHECK_LEASE_SECONDS - 60);
    expect(await rowOf(mail.id)).toMatchObject({ state: 'unknown', dueIn: Infinity });

    // Its second failure in a row, half an hour later, makes it broken.
    await dueNow(gone.id);
    const again = await linkCheckRound({
      db,
      checks,
      fetcher,
      log: quiet,
      intervalSeconds: DAY,
      perHostIntervalMs: 0,
    });
    expect(again).toMatchObject({ checked: 1, broken: 1 });
    expect(await rowOf(gone.id)).toMatchObject({ state: 'broken', failures: 2 });
  });

  it('checks each link once when two rounds run at once', async () => {
    await checks.takeDue(db, 100_000, 3600);
    const where = await place();
    const links = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        createLink(db, where, { url: `https://host${n % 5}.example.com/${n}` }),
      ),
    );
    const fetcher = fakeFetcher({});
    const round = () =>
      linkCheckRound({
        db,
        checks,
        fetcher,
        log: quiet,
        intervalSeconds: DAY,
        perHostIntervalMs: 0,
        batch: 7,
      });
    const [a, b] = await Promise.all([round(), round()]);
    expect(a!.checked + b!.checked).toBe(40);
    const asked = fetcher.calls.map((c) => c.url);
    expect(new Set(asked).size).toBe(40);
    expect(asked).toHaveLength(40);
    for (const link of links) expect(await rowOf(link.id)).toMatchObject({ state: 'fine' });
  });

  it('gives back the links it did not get to when its time is up', async () => {
    await checks.takeDue(db, 100_000, 3600);
    const where = await place();
    const links = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => createLink(db, where, { url: `https://slow.example.com/${n}` })),
    );
    const fetcher = fakeFetcher({});
    const result = await linkCheckRound({
      db,
      checks,
      fetcher,
      log: quiet,
      intervalSeconds: DAY,
      perHostIntervalMs: 100,
      budgetMs: 150,
    });
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect(result.checked).toBeLessThan(5);
    expect(result.released).toBe(5 - result.checked);
    const left = links.filter((l) => !fetcher.calls.some((c) => c.url === l.url));
    expect(left).toHaveLength(result.released);
    for (const link of left) {
      expect(await rowOf(link.id)).toMatchObject({ state: 'unknown', tries: 0 });
      expect((await rowOf(link.id))!.dueIn).toBeLessThanOrEqual(0);
    }
  });
});
