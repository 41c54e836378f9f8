// A link's own icon (decision 0068) against the service and its real repositories: whoever
// may change the link sees where its icon stands, sets it from an image checked and scaled as
// a found one is, and drops it; a team or organization link's change is audited. And which of
// an icon's images is served for a size.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { createTestServices } from '../../../test/app.ts';
import { createLink } from '../../../test/factories.ts';
import { snapshot } from '../../../test/support/rows.ts';
import {
  createCast,
  createWorld,
  type LinkKind,
  type Role,
  type World,
} from '../../../test/support/world.ts';
import { pngHeaderClaiming, pngOf } from './test-images.ts';
import { callerOf } from '../../../test/support/callers.ts';
import { auditEntriesAbout } from '../../../test/support/audit-entries.ts';

const { services, repositories, db } = await createTestServices();
const { icons: service } = services;
const cast = await createCast(db);
let world: World;
beforeAll(async () => {
  world = await createWorld(db, cast);
});

const as = (role: Role) => callerOf(cast[role]);
const origin = { ip: '203.0.113.7', userAgent: 'icon-test' };

/** Everything an icon call may change: the content rows, icon states, icons, the audit. */
const everything = async () => ({
  rows: await snapshot(db),
  icons: await selectRows(db, sql`SELECT link_id, state, icon_id FROM link_icons ORDER BY link_id`),
  kept: await selectRows(db, sql`SELECT id FROM icons ORDER BY id`),
  audit: await selectRows(db, sql`SELECT count(*)::int AS n FROM audit_log`),
});
const iconOf = async (linkId: string) =>
  (
    await selectRows<{ icon: string | null }>(db, sql`SELECT icon FROM links WHERE id = ${linkId}`)
  )[0]?.icon;
const entriesFor = (targetId: string) => auditEntriesAbout(db, targetId);

/** What a call that must be refused threw, after checking that nothing changed. */
async function expectRefused(
  call: () => Promise<unknown>,
  statusCode: number,
  message: string | RegExp,
) {
  const before = await everything();
  const error = await call().then(
    () => new Error('the call was allowed'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({
    statusCode,
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  });
  expect(await everything()).toEqual(before);
}

describe('where a link’s icon stands', () => {
  it('is pending for a new web link, until a round looks', async () => {
    const link = await createLink(db, world.spaces.own, { url: 'https://pending.example/' });
    expect(await service.state(as('owner'), link.id)).toEqual({
      state: 'pending',
      icon: null,
      foundAt: null,
      checkedAt: null,
    });
  });

  it('says where a found icon came from and when it was checked', async () => {
    const link = await createLink(db, world.spaces.own, { url: 'https://found.example/' });
    const images = [32, 64, 96].map((size) => ({
      size,
      contentType: 'image/png' as const,
      bytes: Buffer.from(`found-${size}`),
    }));
    // As an icon round keeps what it found on the site (a background job, not a service).
    const [due] = (await repositories.icons.takeDue(db, 1000, 600)).filter(
      (d) => d.linkId === link.id,
    );
    await repositories.icons.found(db, due!, images, 'https://found.example/favicon.ico', 3600);
    const state = await service.state(as('owner'), link.id);
    expect(state).toMatchObject({
      state: 'found',
      icon: await iconOf(link.id),
      foundAt: 'https://found.example/favicon.ico',
    });
    expect(new Date(state.checkedAt!).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('a link’s own icon', () => {
  const allowed: [LinkKind, Role][] = [
    ['own', 'owner'],
    ['memberInShare', 'member'],
    ['ownerInShare', 'owner'],
    ['team', 'teamEditor'],
    ['team', 'orgAdmin'],
    ['organization', 'orgAdmin'],
  ];
  it.each(allowed)('is set on a link (%s) by %s, checked, scaled and shown', async (kind, who) => {
    const link = world.links[kind];
    await service.upload(as(who), link.id, await pngOf(200, 120), origin);
    const icon = await iconOf(link.id);
    expect(icon).toMatch(/^\/api\/icons\/[A-Za-z0-9_-]{32}$/);
    expect(await service.state(as(who), link.id)).toMatchObject({
      state: 'uploaded',
      icon,
      foundAt: null,
    });
    const image = await service.image(icon!.slice('/api/icons/'.length), 96);
    expect(image).toMatchObject({ size: 96, contentType: 'image/png' });
  });

  const refused: [LinkKind, Role, 403 | 404, string][] = [
    [
      'ownerInShare',
      'member',
      403,
      'Only the person who added this link, or who owns the collection, can.',
    ],
    [
      'team',
      'teamMember',
      403,
      'Only the editors of this team or an administrator can change it; suggest a link instead.',
    ],
    [
      'organization',
      'teamEditor',
      403,
      'Only an administrator can change the organization space; suggest a link instead.',
    ],
    ['own', 'colleague', 404, ''],
    ['outsiders', 'owner', 404, ''],
    ['own', 'outsider', 404, ''],
  ];
  it.each(refused)(
    'is neither shown, set nor dropped on a link (%s) for %s: %i',
    async (kind, who, status, message) => {
      const { id } = world.links[kind];
      const expected = status === 404 ? `Link ${id} was not found` : message;
      const png = await pngOf(64);
      await expectRefused(() => service.state(as(who), id), status, expected);
      await expectRefused(() => service.upload(as(who), id, png, origin), status, expected);
      await expectRefused(() => service.removeUpload(as(who), id, origin), status, expected);
    },
  );

  it.each([
    ['an HTML page', () => Buffer.from('<html>hello</html>'), /not a PNG, JPEG, GIF, WebP or ICO/],
    [
      'an SVG image',
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      /SVG images are not used/,
    ],
    ['a huge picture', () => pngHeaderClaiming(100_000, 100_000), /more than 2048 on a side/],
    ['a tiny picture', () => pngOf(8), /less than 16 on a side/],
  ])('refuses %s with 400 and a clear message, changing nothing', async (_, bytes, message) => {
    const link = world.links.inRoot;
    const body = await bytes();
    await expectRefused(
      () => service.upload(as('owner'), link.id, body, origin),
      400,
      new RegExp(`^The icon was not used: .*${message.source}`),
    );
    expect(await iconOf(link.id)).toBeNull();
  });

  it('goes back to the site’s icon when dropped, audited in a team', async () => {
    const link = world.links.otherTeam;
    await service.upload(as('orgAdmin'), link.id, await pngOf(48), origin);
    await service.removeUpload(as('orgAdmin'), link.id, origin);
    expect(await iconOf(link.id)).toBeNull();
    expect(await service.state(as('orgAdmin'), link.id)).toMatchObject({
      state: 'pending',
      icon: null,
    });
    // Nothing to drop: nothing more is written.
    await service.removeUpload(as('orgAdmin'), link.id, origin);
    expect(await entriesFor(link.id)).toMatchObject([
      {
        action: 'content.link-updated',
        actorId: cast.orgAdmin.id,
        ip: origin.ip,
        before: null,
        after: { icon: 'uploaded' },
        details: { space: 'team' },
      },
      {
        action: 'content.link-updated',
        before: { icon: 'uploaded' },
        after: { icon: 'site' },
        details: { space: 'team' },
      },
    ]);
  });

  it('is not looked for on the site again when dropped from a mail link, and not audited when personal', async () => {
    const link = await createLink(db, world.spaces.own, { url: 'mailto:help@example.com' });
    await service.upload(as('owner'), link.id, await pngOf(48), origin);
    await service.removeUpload(as('owner'), link.id, origin);
    expect(await service.state(as('owner'), link.id)).toMatchObject({ state: 'none', icon: null });
    expect(await entriesFor(link.id)).toEqual([]);
  });
});

describe('the image served for a size', () => {
  it('is the smallest kept at least as large, else the largest; none for an unknown icon', async () => {
    const link = await createLink(db, world.spaces.own);
    await service.upload(as('owner'), link.id, await pngOf(200), origin);
    const id = (await iconOf(link.id))!.slice('/api/icons/'.length);
    const served: [number, number][] = [
      [1, 32],
      [32, 32],
      [33, 64],
      [64, 64],
      [65, 96],
      [500, 96],
    ];
    for (const [wanted, size] of served) {
      expect((await service.image(id, wanted))?.size, `for ${wanted}`).toBe(size);
    }
    expect((await service.image(id))?.size).toBe(64);
    expect(await service.image('A'.repeat(32))).toBeNull();
  });
});
