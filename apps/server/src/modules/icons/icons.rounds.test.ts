import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { selectRows } from '../../db/client.ts';
import { createFetcher } from '../../outbound/fetcher.ts';
import { createTestApp } from '../../../test/app.ts';
import { createSignedInCast } from '../../../test/support/world.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { pngOf, sizeOf } from './test-images.ts';

// The whole way, as the server runs it: a link saved through the API asks for a round on the
// job queue (pg-boss, in process on PGlite), the round asks a real site through the guarded
// fetcher, and the icon shows in the menu and is served by the server.

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

const png = await pngOf(128, 128);
const asked: string[] = [];
const site = createServer((request, response) => {
  asked.push(request.url ?? '');
  if (request.url === '/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html><head><title>Handbook</title>' +
        '<link rel="icon" href="/brand/icon.png" sizes="128x128"></head><body>Hi</body></html>',
    );
  } else if (request.url === '/brand/icon.png') {
    response.writeHead(200, { 'content-type': 'image/png' });
    response.end(png);
  } else {
    response.writeHead(404).end();
  }
});
// A server nobody may reach: an internal address, as an intranet link's would be.
let touched = 0;
const internal = createServer((_request, response) => {
  touched += 1;
  response.end('secret');
});
const sitePort = await listen(site);
const internalPort = await listen(internal);
afterAll(async () => {
  site.close();
  internal.close();
});

const { database, db } = await createTestApp();
const config = loadConfig({ LOG_LEVEL: 'silent', OUTBOUND_REQUESTS: 'true' });
const fetcher = createFetcher({
  version: 'test',
  publicUrl: config.publicUrl,
  testOnlyAllow: [`127.0.0.1:${sitePort}`],
});
const app = await buildApp({ config, database, periodicJobs: true, outboundFetcher: fetcher });
await app.ready();
afterAll(async () => {
  await app.close();
});
const cast = await createSignedInCast(app, db);

const stateOf = async (url: string) =>
  (
    await selectRows<{ state: string; failure: string | null; icon: string | null }>(
      db,
      sql`SELECT i.state, i.failure, l.icon FROM link_icons i JOIN links l ON l.id = i.link_id
          WHERE l.url = ${url}`,
    )
  )[0];

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('an icon round on the job queue', () => {
  it('finds a saved link’s icon on its site within seconds, keeps it and shows it', async () => {
    const url = `http://127.0.0.1:${sitePort}/`;
    const added = await call(app, 'POST', `/collections/${cast.owner.rootId}/links`, cast.owner, {
      name: 'Handbook',
      url,
    });
    expect(added.statusCode).toBe(204);
    const state = await until(
      () => stateOf(url),
      (s) => s?.state === 'found',
    );
    expect(state).toMatchObject({ state: 'found', failure: null });
    expect(asked).toEqual(expect.arrayContaining(['/', '/brand/icon.png']));
    const menu = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: cast.owner.headers,
    });
    expect(menu.body).toContain(`"icon":"${state!.icon}"`);
    const served = await app.inject({ method: 'GET', url: `${state!.icon}?size=32` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(await sizeOf(served.rawPayload)).toMatchObject({ width: 32, height: 32 });
  });

  it('never reaches an internal address: the link keeps its letter, and is not looked at every minute', async () => {
    const url = `http://127.0.0.1:${internalPort}/wiki`;
    const added = await call(app, 'POST', `/collections/${cast.member.rootId}/links`, cast.member, {
      name: 'Intranet wiki',
      url,
    });
    expect(added.statusCode).toBe(204);
    const state = await until(
      () => stateOf(url),
      (s) => s?.state === 'none',
    );
    expect(state).toMatchObject({ state: 'none', icon: null });
    expect(state!.failure).toContain('internal-address');
    expect(touched).toBe(0);
    const [due] = await selectRows<{ inSeconds: number }>(
      db,
      sql`SELECT extract(epoch FROM i.due_at - now())::float8 AS "inSeconds"
          FROM link_icons i JOIN links l ON l.id = i.link_id WHERE l.url = ${url}`,
    );
    expect(due!.inSeconds).toBeGreaterThan(3000);
  });
});
