// Live updates of the menu (decision 0062), two rows of `npm run bench`: the memory of
// 10,000 idle event streams, and how long a change takes from its writer's 204 to another
// member's open stream. The streams are opened with plain `http` requests (one socket each,
// as browsers hold them); their sessions are written straight into the data set's database,
// since 10,000 password sign-ins would only measure argon2.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import type { BenchData } from './dataset.ts';
import type { LoadResult } from './load.ts';
import { rssMb, startServer, stop } from './processes.ts';
import { memoryAtMost, p99AtMost, type Row } from './report.ts';

export interface LiveBenchOptions {
  pgUrl: string;
  port: number;
  workDir: string;
  data: BenchData;
  /** Open streams (the budget is for 10,000). */
  streams: number;
  /** Writes whose arrival is timed. */
  samples: number;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

interface People {
  /** A team of the organization, its first collection, and an editor of it who writes. */
  teamId: string;
  collectionId: string;
  writer: { id: string; token: string };
  /** The people whose streams are opened, with a session token each. */
  streams: { id: string; token: string; inTeam: boolean }[];
}

/** Picks the people and writes their sessions (valid for a day) into the database. */
async function preparePeople(url: string, data: BenchData, count: number): Promise<People> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const team = await client.query<{ teamId: string; writer: string; collectionId: string }>(
      `SELECT tm.team_id AS "teamId", tm.user_id AS writer, c.id AS "collectionId"
       FROM team_memberships tm
       JOIN collections c ON c.owner_team_id = tm.team_id AND c.parent_id IS NULL
       WHERE tm.organization_id = $1 AND tm.role = 'editor'
       ORDER BY tm.team_id, c.position LIMIT 1`,
      [data.organizationId],
    );
    const chosen = team.rows[0];
    if (!chosen) throw new Error('the data set has no team with an editor and a collection');
    // Every n-th person by id: about as many of the team are online as of anyone else.
    const people = await client.query<{ id: string; inTeam: boolean }>(
      `SELECT u.id, EXISTS (SELECT 1 FROM team_memberships tm
                            WHERE tm.team_id = $2 AND tm.user_id = u.id) AS "inTeam"
       FROM users u
       WHERE u.organization_id = $1 AND u.status = 'active' AND u.id <> $3
       ORDER BY u.id LIMIT $4`,
      [data.organizationId, chosen.teamId, chosen.writer, count],
    );
    const streams = people.rows.map((row) => ({
      ...row,
      token: randomBytes(32).toString('base64url'),
    }));
    const writer = { id: chosen.writer, token: randomBytes(32).toString('base64url') };
    const all = [...streams, writer];
    await client.query(
      `INSERT INTO sessions (id, user_id, token_hash, expires_at)
       SELECT 'live-bench-' || s.n, s.user_id, s.token_hash, now() + interval '1 day'
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS s(user_id, token_hash, n)`,
      [all.map((p) => p.id), all.map((p) => hash(p.token))],
    );
    return {
      teamId: chosen.teamId,
      collectionId: chosen.collectionId,
      writer,
      streams,
    };
  } finally {
    await client.end();
  }
}

/** One open stream: when each `menu` event arrived. */
interface OpenStream {
  inTeam: boolean;
  menuAt: number[];
  request: http.ClientRequest;
}

function openStream(
  port: number,
  agent: http.Agent,
  token: string,
  inTeam: boolean,
): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const stream: OpenStream = {
      inTeam,
      menuAt: [],
      request: null as unknown as http.ClientRequest,
    };
    stream.request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/api/consumer/menu/events',
        agent,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`a stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        let ready = false;
        response.on('data', (chunk: string) => {
          // Frames are tiny and written whole: a chunk holds whole frames.
          if (!ready && chunk.includes('event: ready')) {
            ready = true;
            resolve(stream);
          }
          if (chunk.includes('event: menu')) stream.menuAt.push(performance.now());
        });
        response.on('error', () => {});
      },
    );
    stream.request.on('error', reject);
  });
}

async function addLink(port: number, token: string, collectionId: string, n: number) {
  const started = performance.now();
  const response = await fetch(
    `http://127.0.0.1:${port}/api/consumer/collections/${collectionId}/links`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Live ${n}`, url: `https://example.com/live/${n}` }),
    },
  );
  await response.arrayBuffer();
  return { status: response.status, started, answered: performance.now() };
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN);

/** Starts its own server on the data set's database and measures the two rows. */
export async function measureLive(options: LiveBenchOptions): Promise<Row[]> {
  const { port, log } = options;
  log(`Live updates: writing ${options.streams.toLocaleString('en-US')} sessions…`);
  const people = await preparePeople(options.pgUrl, options.data, options.streams);
  const server = await startServer(
    port,
    { url: options.pgUrl },
    path.join(options.workDir, 'server-live.log'),
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const streams: OpenStream[] = [];
  try {
    // Warmed up: the route's code has run once before the idle figure is read.
    const warmup = await openStream(port, agent, people.writer.token, false);
    warmup.request.destroy();
    await sleep(2_000);
    const before = await rssMb(server.pid);
    log(`Live updates: opening ${people.streams.length.toLocaleString('en-US')} streams…`);
    const opening = performance.now();
    // A few hundred at a time: the listen backlog of the server is not the thing measured.
    for (let start = 0; start < people.streams.length; start += 200) {
      const batch = people.streams.slice(start, start + 200);
      streams.push(
        ...(await Promise.all(batch.map((p) => openStream(port, agent, p.token, p.inTeam)))),
      );
    }
    const openSeconds = (performance.now() - opening) / 1000;
    // Settled: the opening's garbage is the server's to collect, not the streams' to keep.
    await sleep(10_000);
    const after = await rssMb(server.pid);
    const extra = before !== null && after !== null ? after - before : null;

    const watched = streams.filter((s) => s.inTeam);
    log(
      `Live updates: timing ${options.samples} writes to a team, ${watched.length} of whose members have a stream open…`,
    );
    const latencies: number[] = [];
    const statusCodes: Record<string, number> = {};
    let missing = 0;
    const timing = performance.now();
    for (let n = 0; n < options.samples; n += 1) {
      const seen = watched.map((s) => s.menuAt.length);
      const write = await addLink(port, people.writer.token, people.collectionId, n);
      statusCodes[write.status] = (statusCodes[write.status] ?? 0) + 1;
      const deadline = performance.now() + 3_000;
      while (
        watched.some((s, i) => s.menuAt.length <= (seen[i] ?? 0)) &&
        performance.now() < deadline
      ) {
        await sleep(2);
      }
      watched.forEach((s, i) => {
        const at = s.menuAt[seen[i] ?? 0];
        if (at === undefined) missing += 1;
        // An event may come before the 204 (it leaves at commit): that is no wait at all.
        else latencies.push(Math.max(0, at - write.answered));
      });
      // Past the burst window, so that each write is told on its own.
      await sleep(150);
    }
    const seconds = (performance.now() - timing) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    const load: LoadResult = {
      requestsPerSecond: options.samples / seconds,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
      requests: options.samples,
      statusCodes,
      errors: missing,
      timeouts: 0,
    };
    return [
      {
        what: `live updates: ${streams.length.toLocaleString('en-US')} idle streams, extra server memory (PostgreSQL)`,
        memoryMb: extra,
        budget: '≤ 150 MB',
        checks: [memoryAtMost(150)],
        note: `VmRSS ${before?.toFixed(0)} → ${after?.toFixed(0)} MB; opened in ${openSeconds.toFixed(1)} s`,
      },
      {
        what: `live updates: a change reaches another member's open stream, p99 (${watched.length} members' streams per write, ${streams.length.toLocaleString('en-US')} open)`,
        load,
        budget: 'p99 ≤ 1,000 ms',
        checks: [p99AtMost(1000)],
        expect: [204],
        note: `from the writer's 204 to the event; requests/s is writes/s${missing ? `; ${missing} events missing` : ''}`,
      },
    ];
  } finally {
    for (const stream of streams) stream.request.destroy();
    agent.destroy();
    await stop(server);
  }
}
