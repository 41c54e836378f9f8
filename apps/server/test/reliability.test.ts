// When the database goes away, requests fail fast with 503 and a clear message, nothing is
// half-written, and the server recovers by itself when the database comes back.
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { freshPostgres } from './app.ts';
import { createOrganization, createUser, signIn } from './factories.ts';

const config = loadConfig({ LOG_LEVEL: 'silent' });

/** A TCP proxy in front of PostgreSQL that the test can cut and restore. */
async function proxyTo(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  const listen = (port = 0) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
    );
  const port = await listen();
  return {
    port,
    down: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        sockets.clear();
        server.close(() => resolve());
      }),
    up: () => listen(port).then(() => undefined),
  };
}

if (process.env.SIGNPOST_TEST_DB === 'postgres') {
  describe('PostgreSQL goes away and comes back', async () => {
    const pgdb = await freshPostgres();
    const direct = new URL(pgdb.url);
    const proxy = await proxyTo(direct);
    const viaProxy = new URL(pgdb.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const database = await openDatabase({ url: viaProxy.toString(), dataDir: null, poolSize: 2 });
    await migrate(database);
    const app = await buildApp({ config, database });
    afterAll(async () => {
      await app.close();
      await database.close().catch(() => {});
      await proxy.down().catch(() => {});
      await pgdb.drop();
    });
    const org = await createOrganization(database.db);
    const user = await createUser(database.db, org.id);
    const { headers } = await signIn(app, user);

    it('answers 503 fast while it is down, then recovers by itself', async () => {
      expect(
        (await app.inject({ method: 'GET', url: '/api/consumer/menu', headers })).statusCode,
      ).toBe(200);
      await proxy.down();
      const started = Date.now();
      const down = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({
        code: 'DATABASE_UNAVAILABLE',
        message: expect.stringMatching(/database/i),
      });
      expect(down.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(Date.now() - started).toBeLessThan(5000);
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/sessions/',
        payload: { type: 'email-password', email: user.email, password: 'whatever1' },
      });
      expect(login.statusCode).toBe(503);
      await proxy.up();
      await expect
        .poll(
          async () =>
            (await app.inject({ method: 'GET', url: '/api/consumer/menu', headers })).statusCode,
          {
            timeout: 10_000,
          },
        )
        .toBe(200);
    });
  });
} else {
  describe('the embedded database is closed', async () => {
    const database = await openDatabase({ url: null, dataDir: null });
    await migrate(database);
    const app = await buildApp({ config, database });
    afterAll(() => app.close());
    const org = await createOrganization(database.db);
    const user = await createUser(database.db, org.id);
    const { headers } = await signIn(app, user);

    it('answers 503 with a clear message, not a stack trace', async () => {
      await database.close();
      const response = await app.inject({ method: 'GET', url: '/api/consumer/menu', headers });
      expect(response.statusCode).toBe(503);
      expect(response.json().code).toBe('DATABASE_UNAVAILABLE');
      expect(response.body).not.toMatch(/at .*\.(ts|js):\d+/);
    });
  });
}
