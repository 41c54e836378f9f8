// Two server instances on one database (decision 0062): a write answered by one reaches the
// streams of the other through the database's announcements, and an instance's streams
// survive a lost LISTEN connection and end at once when the instance shuts down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createOrganization,
  createTeam,
} from '../../../test/factories.ts';
import { call } from '../../../test/support/consumer-call.ts';
import { createPerson, type Person } from '../../../test/support/world.ts';
import { openStream, type OpenedStream } from '../../../test/support/live-stream.ts';

const first = await createTestApp();

/**
 * A second instance on the same database: on PostgreSQL an app with a pool of its own on the
 * same URL; the embedded database lives in one process, so there the two apps share it.
 */
async function secondInstance(): Promise<{ app: App; database: DatabaseHandle }> {
  if (first.database.kind === 'pglite') {
    const app = await buildApp({ config: first.config, database: first.database });
    await app.ready();
    return { app, database: first.database };
  }
  const pool = (
    first.database.db as unknown as { $client: { options: { connectionString: string } } }
  ).$client;
  const database = await openDatabase({
    url: pool.options.connectionString,
    dataDir: null,
    poolSize: 4,
  });
  const app = await buildApp({ config: first.config, database });
  await app.ready();
  return { app, database };
}

const second = await secondInstance();
let secondClosed = false;
afterAll(async () => {
  if (!secondClosed) await second.app.close();
  if (second.database !== first.database) await second.database.close();
});

let editor: Person;
let member: Person;
let teamCollection: { id: string };
const opened: OpenedStream[] = [];
afterAll(() => {
  for (const stream of opened) stream.close();
});

beforeAll(async () => {
  const org = await createOrganization(first.db);
  editor = await createPerson(first.app, first.db, org.id);
  member = await createPerson(first.app, first.db, org.id);
  const team = await createTeam(first.db, org.id);
  await addTeamMember(first.db, team, editor.id, 'editor');
  await addTeamMember(first.db, team, member.id);
  teamCollection = await createCollection(first.db, { team });
});

async function streamOn(app: App, who: Person) {
  const stream = await openStream(app, who.headers);
  opened.push(stream);
  expect(stream.status, stream.body).toBe(200);
  expect(await stream.next()).toBe('ready');
  return stream;
}

async function addLink() {
  const response = await call(
    first.app,
    'POST',
    `/collections/${teamCollection.id}/links`,
    editor,
    {
      name: 'From the first instance',
      url: 'https://example.com/first',
    },
  );
  expect(response.statusCode, response.body).toBe(204);
}

async function menuEtag(app: App, ifNoneMatch?: string) {
  const response = await app.inject({
    method: 'GET',
    url: '/api/consumer/menu',
    headers: { ...member.headers, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) },
  });
  return { status: response.statusCode, etag: String(response.headers.etag) };
}

describe('two instances on one database', () => {
  it('a write answered by one reaches a stream on the other, whose ETag then changes', async () => {
    const stream = await streamOn(second.app, member);
    const before = await menuEtag(second.app);
    expect(before.status).toBe(200);
    await addLink();
    expect(await stream.next()).toBe('menu');
    const after = await menuEtag(second.app, before.etag);
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(before.etag);
    expect(await menuEtag(first.app, after.etag)).toEqual({ status: 304, etag: after.etag });
  });

  // PGlite's listen is a call within the process: there is no connection to lose.
  const onPostgres = first.database.kind === 'postgres' ? it : () => undefined;
  onPostgres(
    'a stream refetches when its instance listens again after losing the connection',
    async () => {
      const stream = await streamOn(second.app, member);
      const cut = await first.database.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
         WHERE application_name = 'signpost-live' AND datname = current_database()`,
      );
      // One LISTEN connection per instance.
      expect(cut).toEqual([{ ended: true }, { ended: true }]);
      // Announcements may have been missed meanwhile: every stream is told to refetch.
      expect(await stream.next(10_000)).toBe('menu');
      await new Promise((resolve) => setTimeout(resolve, 150));
      await addLink();
      expect(await stream.next()).toBe('menu');
    },
  );

  it('closing an instance ends its streams at once, and the other keeps its own', async () => {
    const closing = await streamOn(second.app, member);
    const staying = await streamOn(first.app, member);
    const started = performance.now();
    secondClosed = true;
    await second.app.close();
    await closing.ended;
    expect(performance.now() - started).toBeLessThan(2000);
    await addLink();
    expect(await staying.next()).toBe('menu');
  });
});
