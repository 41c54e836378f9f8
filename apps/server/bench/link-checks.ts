// Link checks (decision 0069), part `linkchecks` of `npm run bench`: one round over the data
// set's links against a local slow server, and the menu's throughput while it runs.
//
// - The slow server (node:http on 127.0.0.1, in this process) answers every path after
//   50–200 ms (seeded): about 80 % 200, 10 % 301 to `/moved/…` on the same host (which
//   answers 200), 10 % 404. It tells the sites apart by the Host header and records when
//   each request came and how many were under way at once.
// - The bench database's `link_checks` rows (the addresses rounds check; `links` and so the
//   menu are left as they are) become `http://<their host>:<slow port>/<their path>`, and
//   the round's fetcher resolves every name to 127.0.0.1 and may reach that one port
//   (`testOnlyAllow`). Each host keeps its name, so the round paces it as its own host
//   (`hostOf` is the name and port): the data set's 24 apps on 23 domains stay 23 hosts.
// - The round runs in the server's own process (bench/link-check-server.ts), as the job
//   queue runs it, with `OUTBOUND_HOST_INTERVAL_MS` as configured (1000 ms by default) and
//   four hosts at once, for a bounded budget: a whole round over the reference set at one
//   request per host per second takes hours, so the rows report the links per second and
//   the projection for the whole set.
// - The menu is measured in windows without and during rounds in turn (W D W D W D W: three
//   rounds of 40 s, each window 3 s of warm-up and 10 s measured), since the shared machine's
//   neighbours move a 13 s window by more than the 10 % the budget allows.
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { BenchData, SizeName } from './dataset.ts';
import type { RoundReply, RoundRequest } from './link-check-server.ts';
import { ROUND_HOSTS } from './link-check-server.ts';
import type { LoadResult, LoadSpec } from './load.ts';
import { startLinkCheckServer, stop } from './processes.ts';
import { Prng } from './prng.ts';
import type { Row } from './report.ts';
import { signIn } from './target.ts';

export interface LinkChecksOptions {
  pgUrl: string;
  /** The port of the server that runs the round and answers the menu. */
  port: number;
  workDir: string;
  data: BenchData;
  size: SizeName;
  /** Rounds, each with the menu measured during it, and without one before and after. */
  rounds: number;
  /** Each round's budget: it takes no new link after it. */
  budgetMs: number;
  /** Drives the menu as the menu rows do (autocannon in its own process). */
  load: (
    spec: Partial<LoadSpec> & { url: string; headers: Record<string, string> },
  ) => Promise<LoadResult>;
  /** What the menu rows ask for (Accept-Encoding, with --compressed). */
  encoding: Record<string, string>;
  /** Baseline B's requests/s when measured in this run (for the ratio column). */
  baseline?: number;
  log: (line: string) => void;
}

/** Timer jitter allowed below the interval: Node's timers and two processes' clocks. */
export const GAP_TOLERANCE_MS = 20;
/** The menu's throughput during a round, as a share of its throughput without one. */
const DURING_SHARE = 0.9;

interface Arrival {
  host: string;
  at: number;
  /** A redirect the fetcher followed (`/moved/…`), not a request the round paced. */
  hop: boolean;
  method: string;
  path: string;
}

/** FNV-1a of a string, for an answer that depends on the address alone. */
function hash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The slow server: every site the links point at, told apart by the Host header. */
function startSlowServer(seed = 69) {
  const delays = new Prng(seed);
  const arrivals: Arrival[] = [];
  const statuses: Record<string, number> = {};
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((request, response) => {
    const at = performance.now();
    const host = (request.headers.host ?? '').toLowerCase();
    const url = request.url ?? '/';
    const hop = url.startsWith('/moved/');
    arrivals.push({ host, at, hop, method: request.method ?? '', path: url });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.once('close', () => (inFlight -= 1));
    const pick = hash(`${host}${url}`, seed) % 10;
    const status = hop ? 200 : pick === 0 ? 404 : pick === 1 ? 301 : 200;
    setTimeout(
      () => {
        statuses[`${request.method} ${status}`] =
          (statuses[`${request.method} ${status}`] ?? 0) + 1;
        if (status === 301) {
          response.writeHead(301, { location: `/moved${url}`, 'content-length': '0' });
          response.end();
          return;
        }
        const body = status === 200 ? 'a page\n' : 'not here\n';
        response.writeHead(status, {
          'content-type': 'text/plain',
          'content-length': String(Buffer.byteLength(body)),
        });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      50 + delays.int(151),
    );
  });
  return {
    server,
    arrivals,
    statuses,
    maxInFlight: () => maxInFlight,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The smallest gap between two requests to one host, of the paced ones and at redirect hops. */
function gaps(arrivals: readonly Arrival[]) {
  const byHost = new Map<string, Arrival[]>();
  for (const arrival of arrivals) {
    const list = byHost.get(arrival.host);
    if (list) list.push(arrival);
    else byHost.set(arrival.host, [arrival]);
  }
  const none = { ms: Infinity, host: '' };
  let paced = none;
  // Of the paced gaps: from a check to the next check, and from a HEAD to the GET after it.
  let between = none;
  let fallback = none;
  let hop = none;
  let hops = 0;
  for (const [host, list] of byHost) {
    list.sort((a, b) => a.at - b.at);
    let lastPaced: Arrival | null = null;
    for (const [i, arrival] of list.entries()) {
      const before = list[i - 1];
      if (arrival.hop) {
        hops += 1;
        if (before && arrival.at - before.at < hop.ms) hop = { ms: arrival.at - before.at, host };
        continue;
      }
      if (lastPaced !== null) {
        const gap = { ms: arrival.at - lastPaced.at, host };
        if (gap.ms < paced.ms) paced = gap;
        const isFallback =
          arrival.method === 'GET' &&
          lastPaced.method === 'HEAD' &&
          arrival.path === lastPaced.path;
        if (isFallback && gap.ms < fallback.ms) fallback = gap;
        if (!isFallback && gap.ms < between.ms) between = gap;
      }
      lastPaced = arrival;
    }
  }
  return { hosts: byHost.size, paced, between, fallback, hop, hops };
}

/** Points the due links' addresses at the slow server; answers how many and on how many hosts. */
async function pointAtSlowServer(pgUrl: string, slowPort: number) {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(
      `UPDATE link_checks
       SET url = regexp_replace(url, '^https?://([^/:?#]+)(:[0-9]+)?', 'http://\\1:' || $1::text, 'i')
       WHERE due_at <= now() AND url ~* '^https?://'`,
      [slowPort],
    );
    // The update leaves a dead row per link: vacuumed now, not by autovacuum in the middle of
    // the menu's measurement without a round.
    await client.query('VACUUM ANALYZE link_checks');
    const { rows } = await client.query<{ due: number; hosts: number }>(
      `SELECT count(*)::int AS due,
              count(DISTINCT lower(substring(url from '^https?://([^/?#]+)')))::int AS hosts
       FROM link_checks WHERE due_at <= now()`,
    );
    return rows[0] ?? { due: 0, hosts: 0 };
  } finally {
    await client.end();
  }
}

function roundReply(child: ChildProcess): Promise<RoundReply> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the server exited (${code})`));
    const onMessage = (message: RoundReply) => {
      if (message.type !== 'round-done' && message.type !== 'round-failed') return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(message);
    };
    child.once('exit', onExit);
    child.on('message', onMessage);
  });
}

/** CPU time a process has used, user and system, in ms (Linux; clock ticks of 10 ms). */
async function cpuMs(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  // Fields after the command's closing parenthesis, from the state (field 3): utime is 14th
  // and stime 15th of the line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Several windows of one load as one: mean requests/s and p50, the worst p99, sums. */
function combined(results: readonly LoadResult[]): LoadResult {
  const mean = (pick: (r: LoadResult) => number) =>
    results.reduce((n, r) => n + pick(r), 0) / results.length;
  const statusCodes: Record<string, number> = {};
  for (const r of results) {
    for (const [code, n] of Object.entries(r.statusCodes)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
    }
  }
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p50: mean((r) => r.p50),
    p99: Math.max(...results.map((r) => r.p99)),
    mean: mean((r) => r.mean),
    requests: results.reduce((n, r) => n + r.requests, 0),
    statusCodes,
    errors: results.reduce((n, r) => n + r.errors, 0),
    timeouts: results.reduce((n, r) => n + r.timeouts, 0),
  };
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const number = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function duration(s: number): string {
  if (s < 120) return `${number(s)} s`;
  if (s < 7200) return `${number(s / 60)} min`;
  return `${number(s / 3600, 1)} h`;
}

export async function measureLinkChecks(options: LinkChecksOptions): Promise<Row[]> {
  const { pgUrl, port, workDir, data, size, rounds, budgetMs, load, encoding, baseline, log } =
    options;
  const slow = startSlowServer();
  const slowPort = await slow.listen();
  let server: ChildProcess | null = null;
  try {
    const due = await pointAtSlowServer(pgUrl, slowPort);
    log(
      `Link checks: ${number(due.due)} due links on ${due.hosts} hosts, pointed at 127.0.0.1:${slowPort}`,
    );
    server = await startLinkCheckServer(
      port,
      { url: pgUrl },
      path.join(workDir, 'server-links.log'),
    );
    const base = `http://127.0.0.1:${port}`;
    const headers = await signIn(base, data);
    const menu = { url: base, headers: { ...headers, ...encoding }, paths: ['/api/consumer/menu'] };
    await fetch(`${base}/api/consumer/menu`, { headers });

    // Windows without and during rounds in turn, W D W D … W, so that the machine's drift
    // (its neighbours) weighs on both sides alike: the menu without a round before each round
    // and after the last, the menu during each round from its start.
    const withouts: LoadResult[] = [];
    const durings: LoadResult[] = [];
    const replies: RoundReply[] = [];
    let overlapped = true;
    // The server's CPU while a round runs alone (after its window, until it ends): what a
    // round costs the process that serves the menu, a figure the neighbours move little.
    let aloneCpuMs = 0;
    let aloneMs = 0;
    slow.arrivals.length = 0;
    const loadAtStart = os.loadavg()[0] ?? 0;
    for (let round = 1; round <= rounds; round += 1) {
      log(`Measuring the menu without a round (${round} of ${rounds + 1})…`);
      withouts.push(await load(menu));
      log(
        `Link check round ${round} of ${rounds} (budget ${seconds(budgetMs)} s), the menu during it…`,
      );
      const replied = roundReply(server);
      const ask: RoundRequest = { type: 'round', slowPort, budgetMs };
      server.send(ask);
      let roundOver = false;
      void replied.finally(() => (roundOver = true)).catch(() => {});
      durings.push(await load(menu));
      const overAlready = roundOver;
      if (overAlready) overlapped = false;
      const cpuFrom = await cpuMs(server.pid);
      const from = performance.now();
      replies.push(await replied);
      const cpuTo = await cpuMs(server.pid);
      if (cpuFrom !== null && cpuTo !== null && !overAlready) {
        aloneCpuMs += cpuTo - cpuFrom;
        aloneMs += performance.now() - from;
      }
    }
    log(`Measuring the menu without a round (${rounds + 1} of ${rounds + 1})…`);
    withouts.push(await load(menu));
    await stop(server);
    server = null;

    const rows: Row[] = [];
    const seen = gaps(slow.arrivals);
    const requests = slow.arrivals.length;
    const codes = Object.entries(slow.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([what, n]) => `${n} × ${what}`)
      .join(', ');
    const failed = replies.find((r) => r.type === 'round-failed');
    const done = replies.filter((r) => r.type === 'round-done');
    if (failed || done.length === 0) {
      rows.push({
        what: 'link check round: requests per host, local slow server',
        budget: 'every request to a host ≥ the interval apart',
        checks: [() => `a round failed: ${failed?.message ?? 'no round ran'}`],
      });
    } else {
      const interval = done[0]!.perHostIntervalMs;
      const ms = done.reduce((n, r) => n + r.ms, 0);
      const counts = { ...done[0]!.counts };
      for (const r of done.slice(1)) {
        for (const key of Object.keys(counts) as (keyof typeof counts)[]) {
          counts[key] += r.counts[key];
        }
      }
      const each = done.map((r) => `${r.counts.checked} in ${seconds(r.ms)} s`).join(', ');
      const perSecond = counts.checked / (ms / 1000);
      const floor = interval - GAP_TOLERANCE_MS;
      const gapText = (g: { ms: number; host: string }) =>
        Number.isFinite(g.ms) ? `${number(g.ms)} ms (${g.host.replace(/:\d+$/, '')})` : 'none';
      rows.push({
        what: `link check round over the ${size} data set's links, local slow server: requests per host`,
        budget: `paced requests of a host ≥ ${interval} ms apart (− ${GAP_TOLERANCE_MS} ms jitter); ≤ ${ROUND_HOSTS} requests at once`,
        checks: [
          () => (counts.checked === 0 ? 'no link checked' : null),
          () => (counts.errors > 0 ? `${counts.errors} checks threw` : null),
          () =>
            seen.paced.ms < floor
              ? `smallest gap ${number(seen.paced.ms)} ms < ${floor} ms (${seen.paced.host})`
              : null,
          () =>
            slow.maxInFlight() > ROUND_HOSTS
              ? `${slow.maxInFlight()} requests at once > ${ROUND_HOSTS}`
              : null,
        ],
        note:
          `${number(counts.checked)} of ${number(due.due)} due links checked in ${done.length} rounds ` +
          `of ${seconds(ms)} s in all (${each}; budget ${seconds(budgetMs)} s each): ${number(perSecond, 2)} links/s, ${number(requests)} requests ` +
          `to ${seen.hosts} hosts, at most ${slow.maxInFlight()} at once; smallest gap between ` +
          `paced requests of a host ${gapText(seen.paced)} (check to check ` +
          `${gapText(seen.between)}, HEAD to its GET ${gapText(seen.fallback)}); ${counts.fine} fine, ${counts.moved} moved, ` +
          `${counts.failed} failed (first failure), ${counts.errors} errors, ` +
          `${counts.released} given back at the budget; answers ${codes}; ` +
          `the whole set at this pace: ${duration(due.due / perSecond)} ` +
          `(at most ${ROUND_HOSTS} hosts × 1 per ${interval} ms = ${number((ROUND_HOSTS * 1000) / interval, 1)} links/s); ` +
          `load average (1 min) at the first window ${number(loadAtStart, 2)}; ` +
          `the server's CPU while a round ran alone ${aloneMs > 0 ? `${number((aloneCpuMs / aloneMs) * 1000)} ms per second over ${seconds(aloneMs)} s` : 'not measured'}`,
      });
      rows.push({
        what: 'link check round: redirect hops (the fetcher follows a 301 at once)',
        budget: `≥ ${interval} ms after the request before it (decision 0069: "between two requests to a host")`,
        checks: [
          () =>
            seen.hops === 0
              ? 'no redirect followed'
              : seen.hop.ms < floor
                ? `smallest gap ${number(seen.hop.ms)} ms < ${floor} ms`
                : null,
        ],
        note: `${seen.hops} hops; smallest gap before one ${gapText(seen.hop)}`,
      });
    }
    const without = combined(withouts);
    const during = combined(durings);
    const share = during.requestsPerSecond / without.requestsPerSecond;
    // Each window during a round against the mean of the two windows around it.
    const pairs = durings.map(
      (d, k) =>
        d.requestsPerSecond /
        ((withouts[k]!.requestsPerSecond + withouts[k + 1]!.requestsPerSecond) / 2),
    );
    const list = (results: readonly LoadResult[]) =>
      results.map((r) => number(r.requestsPerSecond)).join(', ');
    rows.push({
      what: `menu, PostgreSQL, shared fragments on, no link check round (same server; mean of ${withouts.length} windows)`,
      load: without,
      baseline,
      budget: '—',
      checks: [],
      expect: [200],
      note: `windows: ${list(withouts)} req/s`,
    });
    rows.push({
      what: `menu, PostgreSQL, shared fragments on, during a link check round (mean of ${durings.length} windows)`,
      load: during,
      baseline,
      budget: `≥ ${DURING_SHARE} × without (${number(without.requestsPerSecond)} req/s)`,
      checks: [
        () => (overlapped ? null : 'a round ended before its window did'),
        () => (share >= DURING_SHARE ? null : `${number(share, 2)} × without < ${DURING_SHARE} ×`),
      ],
      expect: [200],
      note:
        `${number(share, 2)} × without; windows: ${list(durings)} req/s, each ` +
        `${pairs.map((p) => `${number(p, 2)} ×`).join(', ')} the windows without around it`,
    });
    return rows;
  } finally {
    if (server) await stop(server);
    await slow.close();
  }
}
