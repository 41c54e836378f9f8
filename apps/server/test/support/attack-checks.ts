// What every row of the attack table (test/attacks.test.ts) asserts besides its own status:
// a digest of the whole database to compare before and after, the app's log lines, the
// routes the app has, and the marks of a leak in an answer.
import { createServer, type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { App } from '../../src/app.ts';
import { selectRows, type Database } from '../../src/db/client.ts';

// Columns that a request by a live credential updates as it goes (when a session or a token
// was last used); everything else of every table is compared.
const VOLATILE = ['last_seen_at', 'last_used_at'];
// Tables of the running processes rather than of anyone's data (decision 0082): an instance
// writes its heartbeat into them on a timer, whatever the requests.
const PROCESSES = ['instances', 'instance_jobs', 'live_streams'];

let tableNames: Promise<string[]> | null = null;

/**
 * The row count and an md5 of the content of every table of the application's schema, by
 * table name: equal before and after means nothing was stored, changed or deleted.
 */
export async function databaseDigest(db: Database): Promise<Record<string, string>> {
  tableNames ??= selectRows<{ name: string }>(
    db,
    sql`SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  ).then((rows) => rows.map((row) => row.name).filter((name) => !PROCESSES.includes(name)));
  const strip = VOLATILE.map((column) => sql` - ${column}::text`);
  const parts = (await tableNames).map((name) => {
    const row = sql`(to_jsonb(x)${sql.join(strip, sql``)})::text`;
    return sql`SELECT ${name}::text AS name,
                      count(*)::text || ':' || coalesce(md5(string_agg(${row}, '|' ORDER BY ${row})), '') AS digest
               FROM ${sql.identifier(name)} x`;
  });
  const rows = await selectRows<{ name: string; digest: string }>(
    db,
    sql.join(parts, sql` UNION ALL `),
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}

export interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/**
 * Sends the app's log lines to an array the test reads. The app builds its own pino logger
 * (src/app.ts); its request loggers are children that write to the root's stream, so
 * replacing that stream catches every line. The app must be built with a LOG_LEVEL that
 * writes errors (the tests' default, `silent`, writes nothing).
 */
export function captureLogs(app: App): LogLine[] {
  const lines: LogLine[] = [];
  const log = app.log as unknown as Record<symbol, unknown>;
  const streamSym = Object.getOwnPropertySymbols(log).find((s) => s.description === 'pino.stream');
  if (!streamSym) throw new Error('the app logger is not a pino logger with its own stream');
  log[streamSym] = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
  return lines;
}

export const ERROR_LEVEL = 50;

export interface Route {
  method: string;
  url: string;
}

/**
 * Every route the app has, from its own route tree (`printRoutes`), so that a route added
 * tomorrow is in the list without anyone remembering it. HEAD routes Fastify adds for GET
 * routes are left out.
 */
export function routesOf(app: App): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const url = stack.join('');
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ method, url });
    }
  }
  return routes;
}

/** Marks of an answer that says more than it should: a stack, SQL, a file of the server. */
export const LEAK_PATTERNS: RegExp[] = [
  /\bat [\w.<>]+ \(/, // a stack frame
  /"stack"/,
  /node_modules|\/src\/|\.[jt]s:\d+/,
  /\b(select .+ from|insert into|update \S+ set|delete from)\b/i,
  /Failed query|syntax error|violates|constraint|relation "|duplicate key|\$\d+\b/i,
  /\$argon2/,
  /Error: /,
];

/** A loopback listener that counts the connections it receives (none, if nothing fetches). */
export async function startListener(): Promise<{
  url: string;
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
