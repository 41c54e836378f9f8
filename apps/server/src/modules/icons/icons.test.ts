import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  createCollection,
  createLink,
  createOrganization,
  createUser,
  signIn,
} from '../../../test/factories.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { iconId, iconPath, type DueLink, type IconImage } from './icons.repository.ts';
import { iconRound, retryAfterSeconds, type IconLookup } from './icons.worker.ts';

const { app, db, repositories } = await createTestApp();
const { icons } = repositories;
const org = await createOrganization(db);
const person = await createUser(db, org.id);
const headers = (await signIn(app, person)).headers;
const own = await createCollection(db, { user: person });

const images = (seed: string): IconImage[] =>
  [32, 64, 96].map((size) => ({
    size,
    contentType: 'image/png' as const,
    bytes: Buffer.from(`${seed}-${size}`),
  }));

interface IconRow {
  state: string;
  url: string;
  iconId: string | null;
  dueIn: number;
  tries: number;
  failure: string | null;
}
const stateOf = async (linkId: string) =>
  (
    await selectRows<IconRow>(
      db,
      sql`SELECT state, url, icon_id AS "iconId", tries, failure,
                 CASE WHEN due_at = 'infinity' THEN 'Infinity'::float8
                      ELSE extract(epoch FROM due_at - now()) END AS "dueIn"
          FROM link_icons WHERE link_id = ${linkId}`,
    )
  )[0];
const iconOf = async (linkId: string) =>
  (
    await selectRows<{ icon: string | null }>(db, sql`SELECT icon FROM links WHERE id = ${linkId}`)
  )[0]?.icon;
/** Takes every due link, as a round does, and answers those of `linkIds`, in their order. */
const takeAll = async (...linkIds: string[]): Promise<DueLink[]> => {
  const due = await icons.takeDue(db, 1000, 600);
  return linkIds.map((linkId) => {
    const link = due.find((d) => d.linkId === linkId);
    if (!link) throw new Error(`${linkId} was not due`);
    return link;
  });
};
const take = async (linkId: string): Promise<DueLink> => (await takeAll(linkId))[0]!;
const menuOf = async () => app.inject({ method: 'GET', url: '/api/consumer/menu', headers });

describe('which links are due for an icon', () => {
  it('is every new http or https link at once, never a mailto: link', async () => {
    const web = await createLink(db, own, { url: 'https://wiki.example.com/' });
    const mail = await createLink(db, own, { url: 'mailto:help@example.com' });
    expect(await stateOf(web.id)).toMatchObject({ state: 'pending', url: web.url, tries: 0 });
    expect((await stateOf(web.id))!.dueIn).toBeLessThanOrEqual(0);
    expect(await stateOf(mail.id)).toMatchObject({ state: 'none', dueIn: Infinity });
    const due = await icons.takeDue(db, 1000, 600);
    expect(due.map((d) => d.linkId)).toContain(web.id);
    expect(due.map((d) => d.linkId)).not.toContain(mail.id);
  });

  it('takes a due link once: a second round finds it leased', async () => {
    const link = await createLink(db, own, { url: 'https://once.example.com/' });
    const first = await take(link.id);
    expect(first.tries).toBe(1);
    expect((await icons.takeDue(db, 1000, 600)).map((d) => d.linkId)).not.toContain(link.id);
    expect((await stateOf(link.id))!.dueIn).toBeGreaterThan(590);
  });

  it('looks again at once when the address changes, and drops the old site’s icon', async () => {
    const link = await createLink(db, own, { url: 'https://old.example.com/' });
    const kept = await icons.found(
      db,
      await take(link.id),
      images('old'),
      'https://old.example.com/favicon.ico',
      3600,
    );
    expect(kept).toBe(true);
    expect(await iconOf(link.id)).toMatch(/^\/api\/icons\//);

    // A change that leaves the address as it was changes nothing.
    await db.execute(sql`UPDATE links SET url = url, name = 'Renamed' WHERE id = ${link.id}`);
    expect(await stateOf(link.id)).toMatchObject({ state: 'found' });
    expect(await iconOf(link.id)).toMatch(/^\/api\/icons\//);

    await db.execute(sql`UPDATE links SET url = 'https://new.example.com/' WHERE id = ${link.id}`);
    expect(await stateOf(link.id)).toMatchObject({
      state: 'pending',
      url: 'https://new.example.com/',
    });
    expect((await stateOf(link.id))!.dueIn).toBeLessThanOrEqual(0);
    expect(await iconOf(link.id)).toBeNull();
  });

  it('holds a link’s icon to the icons this server keeps', async () => {
    const link = await createLink(db, own);
    for (const icon of ['https://tracker.example/pixel.png', '/api/icons/../../etc', 'data:x']) {
      await expect(
        db.execute(sql`UPDATE links SET icon = ${icon} WHERE id = ${link.id}`),
      ).rejects.toThrow();
    }
    expect(await iconOf(link.id)).toBeNull();
  });
});

describe('keeping what was found', () => {
  it('shows a found icon on the link, in the menu, and serves it for a year without a session', async () => {
    const link = await createLink(db, own, { url: 'https://found.example.com/', name: 'Found' });
    const before = await menuOf();
    expect(
      await icons.found(
        db,
        await take(link.id),
        images('found'),
        'https://found.example.com/i.png',
        3600,
      ),
    ).toBe(true);
    const id = iconId(org.id, images('found'));
    expect(await iconOf(link.id)).toBe(iconPath(id));
    expect(await stateOf(link.id)).toMatchObject({ state: 'found', iconId: id, tries: 0 });
    expect((await stateOf(link.id))!.dueIn).toBeGreaterThan(3500);

    // The menu shows it, under a new ETag: an open portal picks it up.
    const after = await menuOf();
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toContain(`"icon":"${iconPath(id)}"`);

    for (const [asked, served] of [
      [undefined, 64],
      ['16', 32],
      ['32', 32],
      ['33', 64],
      ['96', 96],
      ['512', 96],
    ] as const) {
      const answer = await app.inject({
        method: 'GET',
        url: `${iconPath(id)}${asked ? `?size=${asked}` : ''}`,
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.rawPayload.toString()).toBe(`found-${served}`);
    }
  });

  it('answers an unknown or malformed icon with a JSON 404 or 400 that nobody keeps', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/api/icons/AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(unknown.headers['cache-control']).toBe('no-store');
    for (const url of ['/api/icons/short', '/api/icons/AAAAAAAAAAAAAAAAAAAAAAAA?size=9000']) {
      const bad = await app.inject({ method: 'GET', url });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });

  it('keeps one copy of a site’s icon per organization, and gives it another address in another', async () => {
    const a = await createLink(db, own, { url: 'https://shared.example.com/a' });
    const b = await createLink(db, own, { url: 'https://shared.example.com/b' });
    const [takenA, takenB] = await takeAll(a.id, b.id);
    await icons.found(db, takenA!, images('shared'), 'x', 3600);
    await icons.found(db, takenB!, images('shared'), 'x', 3600);
    expect(await iconOf(a.id)).toBe(await iconOf(b.id));
    const other = await createOrganization(db);
    expect(iconId(other.id, images('shared'))).not.toBe(iconId(org.id, images('shared')));
    const [count] = await selectRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM icon_images WHERE icon_id = ${iconId(org.id, images('shared'))}`,
    );
    expect(count?.n).toBe(3);
  });

  it('does not keep an icon for an address that changed while it was looked for', async () => {
    const link = await createLink(db, own, { url: 'https://before.example.com/' });
    const taken = await take(link.id);
    await db.execute(
      sql`UPDATE links SET url = 'https://after.example.com/' WHERE id = ${link.id}`,
    );
    expect(await icons.found(db, taken, images('before'), 'x', 3600)).toBe(false);
    expect(await iconOf(link.id)).toBeNull();
    expect(await stateOf(link.id)).toMatchObject({
      state: 'pending',
      url: 'https://after.example.com/',
    });
  });

  it('keeps an icon found before when a later look fails, and says none for a link that never had one', async () => {
    const had = await createLink(db, own, { url: 'https://had.example.com/' });
    await icons.found(db, await take(had.id), images('had'), 'x', 0);
    const never = await createLink(db, own, { url: 'https://never.example.com/' });
    const [hadAgain, neverTaken] = await takeAll(had.id, never.id);
    await icons.notFound(db, hadAgain!, 'the site did not answer', 3600);
    await icons.notFound(db, neverTaken!, 'no image', 7200);
    expect(await stateOf(had.id)).toMatchObject({
      state: 'found',
      failure: 'the site did not answer',
    });
    expect(await iconOf(had.id)).toBe(iconPath(iconId(org.id, images('had'))));
    expect(await stateOf(never.id)).toMatchObject({ state: 'none', failure: 'no image' });
    expect((await stateOf(never.id))!.dueIn).toBeGreaterThan(7100);
  });

  it('never replaces an uploaded icon, and looks for the site’s again once it is removed', async () => {
    const link = await createLink(db, own, { url: 'https://uploaded.example.com/' });
    const taken = await take(link.id);
    const uploaded = await db.transaction((tx) =>
      icons.uploaded(tx, link.id, org.id, images('mine')),
    );
    expect(await icons.found(db, taken, images('site'), 'x', 3600)).toBe(false);
    expect(await iconOf(link.id)).toBe(iconPath(uploaded));
    expect(await stateOf(link.id)).toMatchObject({ state: 'uploaded', dueIn: Infinity });
    // A new address keeps the uploaded icon: it was chosen for the link.
    await db.execute(
      sql`UPDATE links SET url = 'https://moved.example.com/' WHERE id = ${link.id}`,
    );
    expect(await stateOf(link.id)).toMatchObject({ state: 'uploaded', dueIn: Infinity });
    expect(await iconOf(link.id)).toBe(iconPath(uploaded));

    expect(await db.transaction((tx) => icons.removeUpload(tx, link.id))).toBe(true);
    expect(await iconOf(link.id)).toBeNull();
    expect(await stateOf(link.id)).toMatchObject({ state: 'pending', iconId: null });
    expect(await db.transaction((tx) => icons.removeUpload(tx, link.id))).toBe(false);
  });

  it('deletes icons no link uses any more, once they are old enough', async () => {
    const link = await createLink(db, own, { url: 'https://gone.example.com/' });
    await icons.found(db, await take(link.id), images('gone'), 'x', 3600);
    const id = iconId(org.id, images('gone'));
    await call(app, 'DELETE', `/links/${link.id}`, { headers });
    expect(await icons.deleteUnused(db, 3600)).toBe(0);
    expect(await icons.sizes(db, id)).toEqual([32, 64, 96]);
    await db.execute(
      sql`UPDATE icons SET created_at = now() - interval '2 hours' WHERE id = ${id}`,
    );
    expect(await icons.deleteUnused(db, 3600)).toBeGreaterThanOrEqual(1);
    expect(await icons.sizes(db, id)).toEqual([]);
  });
});

describe('a round', () => {
  const quiet = { info() {}, error() {} } as never;

  it('asks each host at its pace, keeps what it finds and notes what it does not', async () => {
    // Nothing else due: this round sees only the links below.
    await icons.takeDue(db, 100_000, 3600);
    const slow = await Promise.all(
      [1, 2, 3].map((n) => createLink(db, own, { url: `https://paced.example.com/${n}` })),
    );
    const other = await createLink(db, own, { url: 'https://other.example.com/' });
    const missing = await createLink(db, own, { url: 'https://missing.example.com/' });
    const asked: { url: string; at: number }[] = [];
    const lookup = async (url: string): Promise<IconLookup> => {
      asked.push({ url, at: Date.now() });
      if (url.includes('missing')) return { ok: false, reason: 'no icon on the page' };
      if (url.includes('other')) throw new Error('a fault of ours');
      return { ok: true, images: images(url), source: `${url}favicon.ico` };
    };
    const result = await iconRound({
      db,
      icons,
      lookup,
      log: quiet,
      refreshSeconds: 3600,
      perHostIntervalMs: 150,
    });
    expect(result).toEqual({ looked: 5, found: 3, released: 0 });
    const paced = asked.filter((a) => a.url.includes('paced')).map((a) => a.at);
    expect(paced).toHaveLength(3);
    for (let i = 1; i < paced.length; i++)
      expect(paced[i]! - paced[i - 1]!).toBeGreaterThanOrEqual(140);
    for (const link of slow) expect(await iconOf(link.id)).toMatch(/^\/api\/icons\//);
    expect(await stateOf(missing.id)).toMatchObject({
      state: 'none',
      failure: 'no icon on the page',
    });
    // The fault leaves the link with its lease: it is looked at again later.
    expect(await stateOf(other.id)).toMatchObject({ state: 'pending' });
    expect((await stateOf(other.id))!.dueIn).toBeGreaterThan(0);
  });

  it('stops at its budget: cuts the lookup under way and the pause before the next, gives back the rest', async () => {
    await icons.takeDue(db, 100_000, 3600);
    // One after the other: the round takes them in this order.
    const links = [];
    for (const n of [1, 2, 3]) {
      links.push(await createLink(db, own, { url: `https://budget.example.com/${n}` }));
    }
    let cut = 0;
    const lookup = (url: string, signal?: AbortSignal): Promise<IconLookup> =>
      url.endsWith('/1')
        ? Promise.resolve({ ok: true, images: images(url), source: `${url}favicon.ico` })
        : // A site that never answers: only the end of the round ends the request.
          new Promise((resolve) =>
            signal?.addEventListener('abort', () => {
              cut += 1;
              resolve({ ok: false, reason: 'cut' });
            }),
          );
    const started = Date.now();
    const result = await iconRound({
      db,
      icons,
      lookup,
      log: quiet,
      refreshSeconds: 3600,
      // The pause between two requests to the host would outlast the round many times.
      perHostIntervalMs: 600_000,
      hosts: 1,
      budgetMs: 300,
      takenBy: 'instance-a',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toEqual({ looked: 1, found: 1, released: 2 });
    expect(cut).toBe(0);
    expect(await iconOf(links[0]!.id)).toMatch(/^\/api\/icons\//);
    // The two it did not get to are due at once, held by no one, the take not counted.
    for (const link of links.slice(1)) {
      const [row] = await selectRows<{ due: boolean; takenBy: string | null; tries: number }>(
        db,
        sql`SELECT due_at <= now() AS due, taken_by AS "takenBy", tries FROM link_icons
            WHERE link_id = ${link.id}`,
      );
      expect(row).toEqual({ due: true, takenBy: null, tries: 0 });
    }
  });

  it('cuts a lookup under way when its budget ends, and gives that link back', async () => {
    await icons.takeDue(db, 100_000, 3600);
    const link = await createLink(db, own, { url: 'https://hangs.example.com/' });
    const result = await iconRound({
      db,
      icons,
      lookup: (_url, signal) =>
        new Promise((resolve) =>
          signal?.addEventListener('abort', () => resolve({ ok: false, reason: 'cut' })),
        ),
      log: quiet,
      refreshSeconds: 3600,
      perHostIntervalMs: 0,
      budgetMs: 200,
    });
    expect(result).toEqual({ looked: 1, found: 0, released: 1 });
    expect(await stateOf(link.id)).toMatchObject({ state: 'pending' });
    expect((await stateOf(link.id))!.dueIn).toBeLessThanOrEqual(0);
  });

  it('waits longer after each miss, up to the refresh', () => {
    expect([1, 2, 3, 4].map((t) => retryAfterSeconds(t, 86_400))).toEqual([
      3600, 7200, 14_400, 28_800,
    ]);
    expect(retryAfterSeconds(30, 86_400)).toBe(86_400);
  });
});
