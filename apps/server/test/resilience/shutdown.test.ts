// Shutdown and time limits of connections (decision 0050), measured on the real server.
// After SIGTERM the server closes idle keep-alive connections at once, answers what is in
// flight with `Connection: close`, cuts a stalled upload when SHUTDOWN_TIMEOUT_SECONDS is
// up, and exits within that bound; a client that sends its headers or body too slowly
// gets 408.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { startSourceServer } from '../support/source-server.ts';

/** A raw HTTP/1.1 connection that records what comes back and when it closes. */
function connection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closedAt: number | null = null;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => {
      closedAt = Date.now();
      resolve(closedAt);
    }),
  );
  const connected = new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return {
    socket,
    connected,
    closed,
    received: () => received,
    closedAt: () => closedAt,
    /** Resolves once a whole response (by Content-Length) has arrived. */
    answered: () =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const end = received.indexOf('\r\n\r\n');
          if (end < 0) return false;
          const length = Number(/content-length: *(\d+)/i.exec(received.slice(0, end))?.[1] ?? 0);
          if (received.length >= end + 4 + length) {
            resolve(received);
            return true;
          }
          return false;
        };
        if (check()) return;
        socket.on('data', check);
        socket.on('close', () => check() || reject(new Error(`closed: ${received}`)));
      }),
  };
}

describe('SIGTERM with an idle keep-alive connection, a request in flight and a stalled upload', () => {
  it(
    'closes the idle one at once, answers the one in flight, and exits within the bound',
    {
      timeout: 90_000,
    },
    async () => {
      const server = await startSourceServer({
        SHUTDOWN_TIMEOUT_SECONDS: '3',
        // Longer than the test: only the shutdown bound may end the stalled upload.
        REQUEST_TIMEOUT_SECONDS: '300',
      });
      const { child, port, exited } = server;
      const incoming = () => server.output().split('incoming request').length - 1;
      try {
        // 1. A keep-alive connection that has had its answer and sits idle.
        const idle = connection(port);
        await idle.connected;
        idle.socket.write('GET /api/setup HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        expect(await idle.answered()).toMatch(/^HTTP\/1\.1 200/);

        // 2. A stalled upload: headers announce 1000 bytes, 10 come.
        const stalled = connection(port);
        await stalled.connected;
        stalled.socket.write(
          'POST /api/auth/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
            'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type":"e',
        );

        // 3. A keep-alive request in flight (sign-in runs argon2id).
        const busy = connection(port);
        await busy.connected;
        const body = JSON.stringify({
          type: 'email-password',
          email: 'x@example.test',
          password: 'nope1234',
        });
        const seen = incoming();
        busy.socket.write(
          'POST /api/auth/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${body.length}\r\n\r\n${body}`,
        );
        await expect.poll(incoming, { timeout: 10_000, interval: 20 }).toBeGreaterThan(seen);

        const signalled = Date.now();
        child.kill('SIGTERM');

        // The idle connection is closed at once, not after the keep-alive timeout.
        await idle.closed;
        expect(idle.closedAt()! - signalled).toBeLessThan(1500);
        // The request in flight gets its whole answer, which ends its connection.
        const answer = await busy.answered();
        expect(answer).toMatch(/^HTTP\/1\.1 401/);
        expect(answer).toMatch(/\r\nconnection: close\r\n/i);
        await busy.closed;
        // The stalled upload is cut when the bound is up, and the process exits, 1: it had to
        // cut a connection.
        const code = await exited;
        const took = Date.now() - signalled;
        expect(took).toBeGreaterThanOrEqual(2500);
        expect(took).toBeLessThan(3000 + 2500);
        expect(code).toBe(1);
        await stalled.closed;
        expect(server.output()).toMatch(/shutdown took too long; cutting open connections/);
      } finally {
        await server.stop();
      }
    },
  );
});

describe('time limits of a request', () => {
  it('answers 408 to headers or a body that come too slowly', { timeout: 30_000 }, async () => {
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      REQUEST_TIMEOUT_SECONDS: '2',
      HEADERS_TIMEOUT_SECONDS: '1',
      DEMO_DATA: 'false',
    });
    const database = await openDatabase({ url: null, dataDir: null });
    await migrate(database);
    const app = await buildApp({ config, database });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as net.AddressInfo).port;

      const slowHeaders = connection(port);
      await slowHeaders.connected;
      const started = Date.now();
      slowHeaders.socket.write('GET /api/setup HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const slowBody = connection(port);
      await slowBody.connected;
      slowBody.socket.write(
        'POST /api/auth/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type":"e',
      );

      await slowHeaders.closed;
      expect(slowHeaders.received()).toMatch(/^HTTP\/1\.1 408/);
      expect(slowHeaders.closedAt()! - started).toBeLessThan(3500);
      await slowBody.closed;
      expect(slowBody.received()).toMatch(/^HTTP\/1\.1 408/);
      expect(slowBody.closedAt()! - started).toBeGreaterThanOrEqual(1900);
      expect(slowBody.closedAt()! - started).toBeLessThan(4500);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
