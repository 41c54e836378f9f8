import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  createSignedInCast,
  createWorld,
  type Role,
  type World,
} from '../../../test/support/world.ts';
import { snapshot } from '../../../test/support/rows.ts';
import { gifOf, pngHeaderClaiming, pngOf, sizeOf } from './test-images.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);
let world: World;
beforeAll(async () => {
  world = await createWorld(db, cast);
});

const send = (
  method: 'GET' | 'PUT' | 'DELETE',
  linkId: string,
  who: Role,
  body?: Buffer,
  type = 'image/png',
) =>
  app.inject({
    method,
    url: `/api/consumer/links/${linkId}/icon`,
    headers: {
      ...cast[who].headers,
      ...(body === undefined ? {} : { 'content-type': type }),
    },
    ...(body === undefined ? {} : { payload: body }),
  });

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

describe('a link’s own icon', () => {
  it('is set by whoever may change the link, checked, scaled, served and shown in the menu', async () => {
    const cases: [keyof World['links'], Role][] = [
      ['own', 'owner'],
      ['memberInShare', 'member'],
      ['ownerInShare', 'owner'],
      ['team', 'teamEditor'],
      ['team', 'orgAdmin'],
      ['organization', 'orgAdmin'],
    ];
    for (const [kind, who] of cases) {
      const link = world.links[kind] as { id: string };
      const answer = await send('PUT', link.id, who, await pngOf(200, 120));
      expect(answer.statusCode, `${kind} by ${who}`).toBe(204);
      const icon = await iconOf(link.id);
      expect(icon).toMatch(/^\/api\/icons\/[A-Za-z0-9_-]{32}$/);
      const state = await send('GET', link.id, who);
      expect(state.json()).toMatchObject({ state: 'uploaded', icon, foundAt: null });
      const served = await app.inject({ method: 'GET', url: `${icon}?size=96` });
      expect(served.statusCode).toBe(200);
      expect(await sizeOf(served.rawPayload)).toMatchObject({ width: 96, height: 96 });
    }
    const menu = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: cast.owner.headers,
    });
    expect(menu.body).toContain(`"icon":"${await iconOf(world.links.own.id)}"`);
  });

  it('is refused to whoever may not change the link, and nothing changes', async () => {
    const cases: [keyof World['links'], Role, number][] = [
      ['ownerInShare', 'member', 403],
      ['team', 'teamMember', 403],
      ['organization', 'teamEditor', 403],
      ['own', 'colleague', 404],
      ['outsiders', 'owner', 404],
      ['own', 'outsider', 404],
    ];
    for (const [kind, who, status] of cases) {
      const link = world.links[kind] as { id: string };
      const before = await everything();
      for (const method of ['PUT', 'DELETE', 'GET'] as const) {
        const answer = await send(
          method,
          link.id,
          who,
          method === 'PUT' ? await pngOf(64) : undefined,
        );
        expect(answer.statusCode, `${method} ${kind} by ${who}`).toBe(status);
        expect(answer.json()).toMatchObject({ message: expect.any(String) });
      }
      expect(await everything()).toEqual(before);
    }
    const anonymous = await app.inject({
      method: 'PUT',
      url: `/api/consumer/links/${world.links.own.id}/icon`,
      headers: { 'content-type': 'image/png' },
      payload: await pngOf(64),
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses what is not a usable image with a clear message, and changes nothing', async () => {
    const link = world.links.inRoot;
    const cases: [Buffer, string, number, RegExp][] = [
      [Buffer.from('<html>hello</html>'), 'image/png', 400, /not a PNG, JPEG, GIF, WebP or ICO/],
      [
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        'image/png',
        400,
        /SVG images are not used/,
      ],
      [pngHeaderClaiming(100_000, 100_000), 'image/png', 400, /more than 2048 on a side/],
      [await pngOf(8), 'image/png', 400, /less than 16 on a side/],
      [Buffer.alloc(300 * 1024, 1), 'image/png', 413, /./],
      [await gifOf(64), 'text/plain', 415, /./],
      [await pngOf(64), 'application/json', 400, /./],
    ];
    for (const [bytes, type, status, message] of cases) {
      const before = await everything();
      const answer = await send('PUT', link.id, 'owner', bytes, type);
      expect(answer.statusCode, `${type} ${bytes.length} bytes`).toBe(status);
      expect(answer.json().message).toMatch(message);
      expect(await everything()).toEqual(before);
    }
    expect(await iconOf(link.id)).toBeNull();
  });

  it('goes back to the site’s icon when removed, and is audited in a team', async () => {
    const link = world.links.otherTeam;
    const count = async () =>
      (
        await selectRows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM audit_log WHERE target_id = ${link.id}`,
        )
      )[0]!.n;
    expect(await count()).toBe(0);
    expect((await send('PUT', link.id, 'orgAdmin', await pngOf(48))).statusCode).toBe(204);
    expect(await count()).toBe(1);
    expect((await send('DELETE', link.id, 'orgAdmin')).statusCode).toBe(204);
    expect(await iconOf(link.id)).toBeNull();
    expect((await send('GET', link.id, 'orgAdmin')).json()).toMatchObject({
      state: 'pending',
      icon: null,
    });
    expect(await count()).toBe(2);
    // Nothing to remove: still 204, and nothing more is written.
    expect((await send('DELETE', link.id, 'orgAdmin')).statusCode).toBe(204);
    expect(await count()).toBe(2);
  });
});
