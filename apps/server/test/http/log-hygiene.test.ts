// What the server writes to its log when things fail (decision 0050): a failed statement's
// values never reach the log, and a client that hangs up mid-upload is not an error, let
// alone "database unavailable".
import { DrizzleQueryError, sql } from 'drizzle-orm';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { safeMessage, serializeError } from '../../src/log-errors.ts';
import { createTestApp } from '../app.ts';

interface LogLine {
  level: number;
  msg: string;
  err?: Record<string, unknown>;
}

const SECRET = 'ada.secret@example.test';

let app: App;
const lines: LogLine[] = [];
const raw: string[] = [];

beforeAll(async () => {
  // The test context's database and configuration, in an app whose log the test reads.
  // Debug, the most the server writes: nothing secret at any level.
  const context = await createTestApp({ LOG_LEVEL: 'debug' });
  app = await buildApp({
    config: context.config,
    database: context.database,
    logStream: {
      write(line: string) {
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      },
    },
  });
  // Statements that fail on values a caller chose, as a route with a bug might run them.
  app.get('/test/bad-cast', async () => {
    await app.database.db.execute(sql`SELECT ${SECRET}::integer`);
  });
  app.get('/test/bad-insert', async () => {
    await app.database.db.execute(
      sql`SELECT * FROM (VALUES (${SECRET})) AS t(v) WHERE v::uuid IS NOT NULL`,
    );
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(() => app.close());

describe('a statement that fails', () => {
  it.each(['/test/bad-cast', '/test/bad-insert'])(
    '%s is logged with its code and statement, without its values',
    async (url) => {
      const before = lines.length;
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(500);
      const logged = lines.slice(before).filter((line) => line.level >= 50);
      expect(logged).toHaveLength(1);
      expect(logged[0]?.msg).toBe('request failed');
      expect(JSON.stringify(logged[0])).toContain('22P02');
      expect(JSON.stringify(logged[0])).toMatch(/Failed query: SELECT/);
      expect(raw.join('')).not.toContain(SECRET);
      expect(raw.join('')).not.toContain('ada.secret');
    },
  );
});

describe('the error serializer', () => {
  it('drops values from Drizzle and PostgreSQL errors, keeps names and codes', () => {
    const cause = Object.assign(new Error(`invalid input syntax for type uuid: "${SECRET}"`), {
      code: '22P02',
      severity: 'ERROR',
      detail: `Key (email)=(${SECRET}) already exists.`,
      where: `SQL function with ${SECRET}`,
      table: 'users',
      params: [SECRET],
      query: 'SELECT $1::uuid',
    });
    const wrapper = new DrizzleQueryError('SELECT $1::uuid', [SECRET], cause);
    const out = JSON.stringify(serializeError(wrapper));
    expect(out).not.toContain(SECRET);
    expect(out).toContain('22P02');
    expect(out).toContain('"table":"users"');
    expect(out).toContain('invalid input syntax for type uuid');
  });
});

describe('the one-line message of the admin commands and of a failed start', () => {
  it('names the failure and its cause, without the values', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      code: '23505',
      severity: 'ERROR',
      detail: `Key (email)=(${SECRET}) already exists.`,
    });
    const error = new DrizzleQueryError('INSERT INTO users VALUES ($1)', [SECRET], cause);
    expect(safeMessage(error)).toBe(
      'Failed query: INSERT INTO users VALUES ($1): duplicate key value violates unique ' +
        'constraint "x"',
    );
    expect(
      safeMessage(new Error(`cannot open the database: ${safeMessage(error)}`, { cause: error })),
    ).not.toContain(SECRET);
    expect(safeMessage(new Error('plain'))).toBe('plain');
  });
});

describe('a client that hangs up mid-upload', () => {
  it('is not logged as an error, nor as the database being unavailable', async () => {
    const before = lines.length;
    const { port } = app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write(
      'POST /api/auth/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type":"email-pass',
    );
    await expect
      .poll(() => lines.slice(before).some((line) => line.msg === 'incoming request'), {
        timeout: 5000,
        interval: 20,
      })
      .toBe(true);
    socket.destroy();
    // The server notices the reset and finishes the request.
    // The server sees the reset at once; what it logs about it comes within milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const errors = lines.slice(before).filter((line) => line.level >= 50);
    expect(errors).toEqual([]);
    expect(raw.slice(before).join('')).not.toMatch(/database unavailable/);
  });
});
