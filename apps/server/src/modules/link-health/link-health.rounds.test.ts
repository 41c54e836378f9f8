import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AttentionResponse, BrokenLinksResponse } from '@signpost/contract';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createFetcher } from '../../outbound/fetcher.ts';
import { createTestApp } from '../../../test/app.ts';
import { createCollection, createLink } from '../../../test/factories.ts';
import { createSignedInCast, type Role } from '../../../test/support/world.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { linkCheckRound } from './link-health.worker.ts';

// Link checks the whole way: real sites on this machine, asked through the guarded fetcher,
// states written by rounds, and the lists people and administrators read.

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const methods: string[] = [];
const site = createServer((request, response) => {
  methods.push(`${request.method} ${request.url}`);
  if (request.url === '/ok') response.writeHead(200).end('fine');
  else if (request.url === '/old') response.writeHead(301, { location: '/new' }).end();
  else if (request.url === '/new') response.writeHead(200).end('new home');
  else if (request.url === '/no-head' && request.method === 'HEAD') response.writeHead(405).end();
  else if (request.url === '/no-head') response.writeHead(200).end('fine with GET');
  else if (request.url === '/sign-in') response.writeHead(401).end();
  else response.writeHead(404).end('gone');
});
let internalTouched = 0;
const internal = createServer((_request, response) => {
  internalTouched += 1;
  response.end('intranet');
});
const port = await listen(site);
const internalPort = await listen(internal);
afterAll(() => {
  site.close();
  internal.close();
});

const { app, db, repositories } = await createTestApp();
const cast = await createSignedInCast(app, db);
const fetcher = createFetcher({
  version: 'test',
  publicUrl: 'http://localhost',
  testOnlyAllow: [`127.0.0.1:${port}`],
});
afterAll(() => fetcher.close());
const checks = repositories.linkHealth;
const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never;
const round = () =>
  linkCheckRound({
    db,
    checks,
    fetcher,
    log: quiet,
    intervalSeconds: 86_400,
    perHostIntervalMs: 0,
  });
/** Makes every link due now, as the next rounds would find them. */
const dueNow = () =>
  db.execute(sql`UPDATE link_checks SET due_at = now() WHERE due_at < 'infinity'`);

const at = (path: string) => `http://127.0.0.1:${port}${path}`;
const team = await createCollection(db, { team: cast.team });
const organization = await createCollection(db, { organizationId: cast.org.id });
const links = {
  ok: await createLink(
    db,
    { id: cast.owner.rootId, organizationId: cast.org.id },
    { url: at('/ok'), name: 'Fine' },
  ),
  moved: await createLink(
    db,
    { id: cast.owner.rootId, organizationId: cast.org.id },
    { url: at('/old'), name: 'Old home' },
  ),
  noHead: await createLink(db, team, { url: at('/no-head'), name: 'No HEAD' }),
  signIn: await createLink(db, team, { url: at('/sign-in'), name: 'Behind sign-in' }),
  gone: await createLink(db, team, { url: at('/gone'), name: 'Team wiki' }),
  orgGone: await createLink(db, organization, { url: at('/also-gone'), name: 'Payroll' }),
  intranet: await createLink(db, organization, {
    url: `http://127.0.0.1:${internalPort}/`,
    name: 'Intranet',
  }),
  mail: await createLink(db, organization, { url: 'mailto:help@example.com', name: 'Help' }),
};
const stateOf = async (id: string) =>
  (
    await selectRows<{
      state: string;
      failures: number;
      status: number | null;
      movedTo: string | null;
    }>(
      db,
      sql`SELECT state, failures, status, moved_to AS "movedTo" FROM link_checks WHERE link_id = ${id}`,
    )
  )[0];
const get = (url: string, who: Role) =>
  app.inject({ method: 'GET', url, headers: cast[who].headers });

describe('link checks against real sites', () => {
  it('says fine, moved, broken after two failures in a row, and never checks an internal address or mail', async () => {
    await round();
    expect(await stateOf(links.ok.id)).toMatchObject({ state: 'fine', failures: 0, status: 200 });
    expect(await stateOf(links.moved.id)).toMatchObject({ state: 'moved', movedTo: at('/new') });
    expect(await stateOf(links.noHead.id)).toMatchObject({ state: 'fine' });
    expect(methods).toEqual(expect.arrayContaining(['HEAD /no-head', 'GET /no-head']));
    expect(await stateOf(links.signIn.id)).toMatchObject({ state: 'fine', status: 401 });
    // One failure is not enough.
    expect(await stateOf(links.gone.id)).toMatchObject({ state: 'unknown', failures: 1 });
    expect(await stateOf(links.intranet.id)).toMatchObject({ state: 'unknown', failures: 0 });
    expect(await stateOf(links.mail.id)).toMatchObject({ state: 'unknown', failures: 0 });
    expect(internalTouched).toBe(0);

    await dueNow();
    await round();
    expect(await stateOf(links.gone.id)).toMatchObject({
      state: 'broken',
      failures: 2,
      status: 404,
    });
    expect(await stateOf(links.orgGone.id)).toMatchObject({ state: 'broken' });
    expect(await stateOf(links.intranet.id)).toMatchObject({ state: 'unknown' });
    expect(internalTouched).toBe(0);
  });

  it('tells the people who may fix a link, and nobody else', async () => {
    const names = async (who: Role) => {
      const answer = await get('/api/consumer/links/attention', who);
      expect(answer.statusCode).toBe(200);
      return (answer.json() as AttentionResponse).items.map((i) => `${i.name}:${i.state}`).sort();
    };
    expect(await names('owner')).toEqual(['Old home:moved']);
    expect(await names('teamEditor')).toEqual(['Team wiki:broken']);
    expect(await names('orgAdmin')).toEqual(['Payroll:broken', 'Team wiki:broken']);
    expect(await names('teamMember')).toEqual([]);
    expect(await names('member')).toEqual([]);
    expect(await names('outsider')).toEqual([]);
    const moved = (
      (await get('/api/consumer/links/attention', 'owner')).json() as AttentionResponse
    ).items[0];
    expect(moved).toMatchObject({ movedTo: at('/new'), canChange: true, space: 'personal' });
    expect(
      (await app.inject({ method: 'GET', url: '/api/consumer/links/attention' })).statusCode,
    ).toBe(401);
  });

  it('lists the broken links of the spaces an administrator or editor runs', async () => {
    const broken = async (who: Role) => {
      const answer = await get('/api/admin/links/broken', who);
      return answer.statusCode === 200
        ? (answer.json() as BrokenLinksResponse).items.map(
            (i) => `${i.spaceName}/${i.name}:${i.status}`,
          )
        : answer.statusCode;
    };
    expect(await broken('orgAdmin')).toEqual(
      expect.arrayContaining([
        `${cast.team.name}/Team wiki:404`,
        expect.stringMatching(/\/Payroll:404$/),
      ]),
    );
    expect(await broken('teamEditor')).toEqual([`${cast.team.name}/Team wiki:404`]);
    expect(await broken('member')).toBe(403);
  });

  it('takes a moved link off the list once its address is updated, and checks the new one', async () => {
    const fixed = await call(app, 'PATCH', `/links/${links.moved.id}`, cast.owner, {
      url: at('/new'),
    });
    expect(fixed.statusCode).toBe(204);
    expect(await stateOf(links.moved.id)).toMatchObject({ state: 'unknown', movedTo: null });
    const answer = (
      await get('/api/consumer/links/attention', 'owner')
    ).json() as AttentionResponse;
    expect(answer.items).toEqual([]);
    await round();
    expect(await stateOf(links.moved.id)).toMatchObject({ state: 'fine', status: 200 });
  });
});
