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
import { gifOf, pngOf, sizeOf } from './test-images.ts';

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
  // Who may set which link's icon, and what the image must be: icons.service.test.ts.
  it('is set through the API, served at its address for a size, and shown in the menu', async () => {
    const link = world.links.own;
    const answer = await send('PUT', link.id, 'owner', await pngOf(200, 120));
    expect(answer.statusCode).toBe(204);
    expect(answer.body).toBe('');
    const icon = await iconOf(link.id);
    expect(icon).toMatch(/^\/api\/icons\/[A-Za-z0-9_-]{32}$/);
    const state = await send('GET', link.id, 'owner');
    expect(state.statusCode).toBe(200);
    expect(state.json()).toEqual({
      state: 'uploaded',
      icon,
      foundAt: null,
      checkedAt: expect.any(String),
    });
    const served = await app.inject({ method: 'GET', url: `${icon}?size=96` });
    expect(served.statusCode).toBe(200);
    expect(await sizeOf(served.rawPayload)).toMatchObject({ width: 96, height: 96 });
    const menu = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: cast.owner.headers,
    });
    expect(menu.body).toContain(`"icon":"${icon}"`);
  });

  it('answers one refusal of each status on each method, and nothing changes', async () => {
    const cases: [keyof World['links'], Role, number, string][] = [
      ['team', 'teamMember', 403, 'FORBIDDEN'],
      ['own', 'colleague', 404, 'NOT_FOUND'],
    ];
    for (const [kind, who, status, code] of cases) {
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
        expect(answer.json()).toMatchObject({ code, message: expect.any(String) });
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

  it('answers 204 to dropping the icon, even when there is none', async () => {
    const link = world.links.inRoot;
    expect((await send('PUT', link.id, 'owner', await pngOf(48))).statusCode).toBe(204);
    for (let i = 0; i < 2; i += 1) {
      const answer = await send('DELETE', link.id, 'owner');
      expect(answer.statusCode).toBe(204);
      expect(answer.body).toBe('');
    }
    expect(await iconOf(link.id)).toBeNull();
  });
});
