// The web app's benchmark (docs/performance.md, "Web"), not part of `npm test`:
//
//   npm run bench:web                 # 7 cold loads, 3 rounds of interactions
//   npm run bench:web -- --loads 11   # more cold loads
//   npm run bench:web -- --data-dir /tmp/ref   # reuse (or keep) a reference data set
//   BENCH_TRACE=/tmp/trace.json npm run bench:web   # keep the interactions' trace
//
// Builds what is missing, writes the reference data set into a temporary folder, starts the
// real server on it, and drives Debian's Chromium (headless) through Playwright. It prints
// one table with PASS or FAIL against the budgets and exits non-zero when one is missed.
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { SESSION_HANDOVER_COOKIE } from '@signpost/contract';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { MENU_PAINTED_MARK } from '../src/lib/menu-painted-mark.ts';
import { measureSearch } from './search.ts';

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(WEB_DIR, '../..');
const DIST = path.join(WEB_DIR, 'dist');
const CHROMIUM = '/usr/bin/chromium';
const BENCH_USER = { email: 'bench@example.com', password: 'signpost-bench' };

const BUDGET = {
  /** Compressed, as the browser receives it (decision 0059). */
  firstScreenKb: 100,
  paintMs: 1000,
  longTaskMs: 50,
  search10kMs: 2,
  search100kMs: 16,
};

const { values: options } = parseArgs({
  options: {
    loads: { type: 'string', default: '7' },
    rounds: { type: 'string', default: '3' },
    'data-dir': { type: 'string' },
  },
});
const LOADS = Math.max(5, Number(options.loads));
const ROUNDS = Math.max(1, Number(options.rounds));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function run(command: string, args: string[]) {
  console.log(`> ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startServer(dataDir: string, port: number, logFile: string) {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/server/dist/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', log, log],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited; see ${logFile}`);
    try {
      if ((await fetch(`${base}/api/auth/methods`)).ok) return { child, base };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the server did not answer within two minutes; see ${logFile}`);
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sessions/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'email-password', ...BENCH_USER }),
  });
  if (response.status !== 201) throw new Error(`sign-in answered ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

const gzipKb = (file: string) =>
  gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length / 1024;

/** The scripts dist/index.html loads: the entry and the chunks it preloads. */
function firstScreenFromHtml(): string[] {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const files = new Set<string>();
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="\/([^"]+\.js)"/g)) {
    files.add(match[1]!);
  }
  return [...files];
}

interface Load {
  paintMs: number;
  menuMs: number;
  cards: number;
  scripts: string[];
  /** Every script the browser received, with the bytes of its body as sent and its coding. */
  wire: Map<string, { bytes: number; encoding: string }>;
}

/**
 * The address that signs a new browser context in as the end of a single sign-on does: the
 * token in the fragment with its hand-over value, and the same value in the cookie the
 * callback sets (decision 0080). A token without it would be asked about first.
 */
async function signedInAddress(context: BrowserContext, base: string, token: string) {
  const handover = randomBytes(32).toString('base64url');
  await context.addCookies([{ name: SESSION_HANDOVER_COOKIE, value: handover, url: base }]);
  return `${base}/#session?token=${encodeURIComponent(token)}&handover=${handover}`;
}

/** One cold load: a new browser context (no cache, no storage), signed in by the fragment. */
async function coldLoad(browser: Browser, base: string, token: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const wire: Load['wire'] = new Map();
    const sizes: Promise<void>[] = [];
    page.on('requestfinished', (request) => {
      const file = new URL(request.url()).pathname.slice(1);
      if (!file.endsWith('.js')) return;
      sizes.push(
        (async () => {
          const [{ responseBodySize }, response] = await Promise.all([
            request.sizes(),
            request.response(),
          ]);
          const encoding = (await response?.headerValue('content-encoding')) ?? 'identity';
          wire.set(file, { bytes: responseBodySize, encoding });
        })().catch(() => {
          // A script that finished as the context closed (one loaded after the paint): not
          // part of the first screen. A first-screen script missing here is reported as
          // "not received".
        }),
      );
    });
    await page.goto(await signedInAddress(context, base, token));
    await page.waitForFunction(
      (mark) => performance.getEntriesByName(mark).length > 0,
      MENU_PAINTED_MARK,
      { timeout: 30_000 },
    );
    const measured = await page.evaluate((mark) => {
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const menu = resources.find((entry) => entry.name.includes('/api/consumer/menu'));
      return {
        paintMs: performance.getEntriesByName(mark)[0]!.startTime,
        menuMs: menu ? menu.responseEnd - menu.startTime : NaN,
        cards: document.querySelectorAll('.space-card').length,
        // Scripts asked for before the menu was painted; panels preloaded afterwards are not
        // part of the first screen.
        scripts: resources
          .filter((entry) => entry.startTime < performance.getEntriesByName(mark)[0]!.startTime)
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
          .map((entry) => new URL(entry.name).pathname.slice(1)),
      };
    }, MENU_PAINTED_MARK);
    await Promise.all(sizes);
    return { ...measured, wire };
  } finally {
    await context.close();
  }
}

const OBSERVE_LONG_TASKS = () => {
  const tasks: { start: number; duration: number }[] = [];
  (window as unknown as { longTasks: typeof tasks }).longTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      tasks.push({ start: entry.startTime, duration: entry.duration });
    }
  }).observe({ type: 'longtask', buffered: true });
};

interface LongTask {
  /** Wall-clock duration, as the browser reports it (PerformanceObserver 'longtask'). */
  ms: number;
  /** CPU time of the same task on the page's main thread (from a trace). */
  cpuMs: number | null;
}

type Phase = 'search' | 'openSearch' | 'openCollection' | 'showAll';
type Interactions = Record<Phase, LongTask[]>;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * Opens the search panel, types a 10-letter query, opens a collection panel and Show all,
 * ROUNDS times. Long tasks come from the browser's PerformanceObserver; a trace of the same
 * run gives each one's CPU time, which tells a slow task from one the neighbours slowed down.
 */
async function interactions(browser: Browser, base: string, token: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tasks: Interactions = { search: [], openSearch: [], openCollection: [], showAll: [] };
  const windows: { phase: Phase; from: number; to: number }[] = [];
  try {
    await context.addInitScript(OBSERVE_LONG_TASKS);
    const page = await context.newPage();
    await page.goto(await signedInAddress(context, base, token));
    await page.waitForFunction(
      (mark) => performance.getEntriesByName(mark).length > 0,
      MENU_PAINTED_MARK,
    );
    await sleep(1000);
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'blink.user_timing',
        '__metadata',
      ],
    });
    let step = 0;
    const during = async (phase: Phase, action: () => Promise<void>, settleMs = 700) => {
      const name = `bench:${(step += 1)}`;
      const from = await page.evaluate((mark) => performance.mark(`${mark}:start`).startTime, name);
      await action();
      await sleep(settleMs);
      const to = await page.evaluate((mark) => performance.mark(`${mark}:end`).startTime, name);
      windows.push({ phase, from, to });
    };

    for (let round = 0; round < ROUNDS; round += 1) {
      const search = page.getByRole('dialog', { name: 'Search' });
      await during('openSearch', async () => {
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await search.getByRole('combobox').waitFor();
      });
      // About 150 ms between keys, an even typist; the last letters land within the debounce.
      await during(
        'search',
        async () => {
          await search.getByRole('combobox').pressSequentially('onboarding', { delay: 150 });
          await search.getByRole('region', { name: 'Results' }).waitFor();
        },
        1000,
      );
      await search.getByRole('button', { name: 'Close' }).click();
      await search.waitFor({ state: 'detached' });

      const personal = page.locator('.space-card[data-space-type="personal"]');
      await during('openCollection', async () => {
        await personal.locator('.tile--collection').first().click();
        await page.locator('dialog.collection-panel[open] .tile').first().waitFor();
      });
      await page.locator('dialog[open]').getByRole('button', { name: 'Close' }).click();
      await page.locator('dialog.collection-panel').waitFor({ state: 'detached' });

      const organization = page.locator('.space-card[data-space-type="organization"]');
      await during('showAll', async () => {
        await organization.getByRole('button', { name: /Show all/ }).click();
        await page.locator('dialog[open] .tile').first().waitFor();
      });
      await page.locator('dialog[open]').getByRole('button', { name: 'Close' }).click();
      await page.locator('dialog[open]').waitFor({ state: 'detached' });
      await sleep(300);
    }

    const raw = await browser.stopTracing();
    if (process.env.BENCH_TRACE)
      (await import('node:fs')).writeFileSync(process.env.BENCH_TRACE, raw);
    const trace = JSON.parse(raw.toString('utf8')) as {
      traceEvents: TraceEvent[];
    };
    const observed = await page.evaluate(
      () => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks,
    );
    // The trace's clock is not the page's: the first mark, seen in both, aligns them.
    const events = trace.traceEvents;
    const firstMark = events.find((event) => event.name === 'bench:1:start');
    const main = events.find(
      (event) =>
        event.name === 'thread_name' &&
        event.args?.name === 'CrRendererMain' &&
        event.pid === firstMark?.pid,
    );
    const runTasks = events.filter(
      (event) =>
        event.name === 'RunTask' &&
        event.ph === 'X' &&
        event.pid === main?.pid &&
        event.tid === main?.tid &&
        (event.dur ?? 0) >= 40_000,
    );
    const offset = firstMark ? firstMark.ts / 1000 - windows[0]!.from : null;
    for (const task of observed) {
      const window_ = windows.find((w) => task.start >= w.from && task.start <= w.to);
      if (!window_) continue;
      let cpuMs: number | null = null;
      if (offset !== null) {
        const at = task.start + offset;
        const match = runTasks.find((event) => Math.abs(event.ts / 1000 - at) < 5);
        if (match?.tdur !== undefined) cpuMs = match.tdur / 1000;
      }
      tasks[window_.phase].push({ ms: task.duration, cpuMs });
    }
  } finally {
    await context.close();
  }
  return tasks;
}

/** The links of the collection the reorder phase arranges (decision 0075). */
const REORDER_LINKS = 500;

/** Calls the portal's API as the bench user; a failed call stops the run. */
async function api(base: string, token: string, method: string, url: string, body?: unknown) {
  const response = await fetch(`${base}/api/consumer${url}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}`);
  return response;
}

/**
 * A collection of REORDER_LINKS links in the bench user's My Space, made through the API
 * (and deleted after), its panel opened, and its first link carried one place on by the
 * keyboard ROUNDS times: each a drag over 500 places, one order call naming 500 items, and
 * the panel drawn again. Long tasks are read as in `interactions`.
 */
async function reorderTasks(browser: Browser, base: string, token: string): Promise<LongTask[]> {
  const name = `Reorder bench ${process.pid}`;
  await api(base, token, 'POST', '/collections/', { name });
  const menu = (await (await api(base, token, 'GET', '/menu')).json()) as {
    spaces: { collections: { items: { type: string; id: string; name: string }[] }[] }[];
  };
  const made = menu.spaces
    .flatMap((space) => space.collections.flatMap((collection) => collection.items))
    .find((item) => item.name === name);
  if (!made) throw new Error(`${name} is not in the menu`);
  for (let i = 0; i < REORDER_LINKS; i += 1) {
    await api(base, token, 'POST', `/collections/${made.id}/links`, {
      name: `Ordered ${String(i).padStart(3, '0')}`,
      url: `https://example.com/ordered/${i}`,
    });
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tasks: LongTask[] = [];
  try {
    await context.addInitScript(OBSERVE_LONG_TASKS);
    const page = await context.newPage();
    await page.goto(await signedInAddress(context, base, token));
    await page.waitForFunction(
      (mark) => performance.getEntriesByName(mark).length > 0,
      MENU_PAINTED_MARK,
    );
    // The card shows its first twelve items: the collection, added last, is in Show all.
    await page
      .locator('.space-card[data-space-type="personal"]')
      .getByRole('button', { name: /Show all/ })
      .click();
    await page.locator('dialog[open]').getByRole('button', { name, exact: true }).click();
    const panel = page.getByRole('dialog', { name });
    await panel
      .locator('.tile')
      .nth(REORDER_LINKS - 1)
      .waitFor();
    await sleep(1000);
    const from = await page.evaluate(() => performance.now());
    for (let round = 0; round < ROUNDS; round += 1) {
      const first = (await panel.locator('.tile__name').first().textContent())?.trim() ?? '';
      await panel.getByRole('button', { name: `Move ${first}`, exact: true }).focus();
      await page.keyboard.press('Space');
      await panel.getByTestId('drop-zone-trash').waitFor();
      // Past the two zones (to My Space, the trash) to the place of the second link.
      for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Space');
      await panel
        .locator('.tile__name')
        .first()
        .filter({ hasNotText: new RegExp(`^${first}$`) })
        .waitFor();
      await sleep(700);
    }
    const observed = await page.evaluate(
      () => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks,
    );
    for (const task of observed) {
      if (task.start >= from) tasks.push({ ms: task.duration, cpuMs: null });
    }
  } finally {
    await context.close();
    await api(base, token, 'DELETE', `/collections/${made.id}/`);
  }
  return tasks;
}

type Row = [what: string, figure: string, budget: string, result: string];

function verdict(ok: boolean, note = '') {
  return ok ? 'PASS' : `FAIL${note ? ` (${note})` : ''}`;
}

function longTaskRow(what: string, tasks: LongTask[]): Row {
  const over = tasks.filter((task) => task.ms > BUDGET.longTaskMs);
  const worst = tasks.reduce<LongTask | null>((a, b) => (a && a.ms >= b.ms ? a : b), null);
  const cpu = (task: LongTask) => (task.cpuMs === null ? '' : `, ${task.cpuMs.toFixed(0)} ms CPU`);
  const figure = worst
    ? `${tasks.length} long task(s), longest ${worst.ms.toFixed(0)} ms${cpu(worst)}`
    : 'no long task';
  return [
    what,
    figure,
    `none over ${BUDGET.longTaskMs} ms`,
    verdict(over.length === 0, `${over.length} over`),
  ];
}

function printTable(rows: Row[]) {
  const header: Row = ['measurement', 'figure', 'budget', 'result'];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
  const line = (row: Row) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
}

async function main() {
  const started = Date.now();
  console.log(`load average at start: ${loadAverage()} (${os.cpus().length} cores)`);
  run('node', ['scripts/prepare.mjs', '--build']);

  // A given folder is kept, and its data set reused when there is one.
  const given = options['data-dir'] ? path.resolve(options['data-dir']) : null;
  const dataDir = given ?? mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-web-'));
  let server: ChildProcess | null = null;
  let browser: Browser | null = null;
  // The server's log stays only when something went wrong.
  const serverLog = path.join(os.tmpdir(), `signpost-bench-web-server-${process.pid}.log`);
  let failed = true;
  try {
    if (!given || !existsSync(path.join(dataDir, 'PG_VERSION'))) {
      run('npm', [
        'run',
        'bench:data',
        '-w',
        '@signpost/server',
        '--',
        '--size',
        'reference',
        '--data-dir',
        dataDir,
      ]);
    }
    const port = await freePort();
    const started_ = await startServer(dataDir, port, serverLog);
    server = started_.child;
    const { base } = started_;
    const token = await signIn(base);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
      ],
    });

    // One load first, whose figures are dropped: the server's caches and the JIT warm up.
    await coldLoad(browser, base, token);
    const loads: Load[] = [];
    for (let i = 0; i < LOADS; i += 1) loads.push(await coldLoad(browser, base, token));
    const loadAfterPaint = loadAverage();
    console.log(
      `cold loads, ms to menu painted: ${loads.map((l) => l.paintMs.toFixed(0)).join(', ')}`,
    );
    console.log(`  menu request, ms: ${loads.map((l) => l.menuMs.toFixed(0)).join(', ')}`);
    const tasks = await interactions(browser, base, token);
    const reordering = await reorderTasks(browser, base, token);
    const loadAfterInteractions = loadAverage();

    const fromHtml = firstScreenFromHtml();
    const loaded = [...new Set(loads.flatMap((l) => l.scripts))];
    const firstScreen = [...new Set([...fromHtml, ...loaded])];
    // The bytes the browser received for each: the body as sent (brotli from the build).
    const wire = new Map(loads.flatMap((l) => [...l.wire]));
    const unseen = firstScreen.filter((file) => !wire.has(file));
    const wireKb =
      firstScreen.reduce((total, file) => total + (wire.get(file)?.bytes ?? 0), 0) / 1024;
    const encodings = [...new Set(firstScreen.map((file) => wire.get(file)?.encoding))].join(', ');
    const gzipSum = firstScreen.reduce((total, file) => total + gzipKb(file), 0);
    console.log('first-screen scripts, bytes on the wire:');
    for (const file of firstScreen) {
      const sent = wire.get(file);
      console.log(`  ${file}: ${sent ? `${sent.bytes} (${sent.encoding})` : 'not seen'}`);
    }

    const search10k = measureSearch(10_000);
    const search100k = measureSearch(100_000);
    const scan10k = measureSearch(10_000, 5, false);
    const scan100k = measureSearch(100_000, 5, false);
    const loadAfterSearch = loadAverage();

    const paint = median(loads.map((l) => l.paintMs));
    const rows: Row[] = [
      [
        'first-screen JavaScript on the wire',
        `${wireKb.toFixed(1)} KB in ${firstScreen.length} files (${encodings}; at gzip -9 ${gzipSum.toFixed(1)} KB)`,
        `≤ ${BUDGET.firstScreenKb} KB`,
        verdict(
          unseen.length === 0 && wireKb <= BUDGET.firstScreenKb,
          unseen.length ? `not received: ${unseen.join(', ')}` : '',
        ),
      ],
      [
        `portal painted, median of ${LOADS} cold loads`,
        `${paint.toFixed(0)} ms (menu request ${median(loads.map((l) => l.menuMs)).toFixed(0)} ms; ${loads[0]!.cards} cards)`,
        `≤ ${BUDGET.paintMs} ms`,
        verdict(paint <= BUDGET.paintMs),
      ],
      longTaskRow(`typing a 10-letter search, ${ROUNDS}×`, tasks.search),
      longTaskRow(`opening the search panel, ${ROUNDS}×`, tasks.openSearch),
      longTaskRow(`opening a collection panel, ${ROUNDS}×`, tasks.openCollection),
      longTaskRow(`opening Show all (organization, 500 links), ${ROUNDS}×`, tasks.showAll),
      longTaskRow(
        `reordering by keyboard in a collection of ${REORDER_LINKS} links, ${ROUNDS}×`,
        reordering,
      ),
      [
        `search per keystroke, ${search10k.links.toLocaleString('en')} links`,
        `mean ${search10k.meanMs.toFixed(2)} ms (p95 ${search10k.p95Ms.toFixed(2)}, max ${search10k.maxMs.toFixed(1)}; two full scans ${scan10k.meanMs.toFixed(2)})`,
        `mean ≤ ${BUDGET.search10kMs} ms`,
        verdict(search10k.meanMs <= BUDGET.search10kMs),
      ],
      [
        `search per keystroke, ${search100k.links.toLocaleString('en')} links`,
        `mean ${search100k.meanMs.toFixed(2)} ms (p95 ${search100k.p95Ms.toFixed(2)}, max ${search100k.maxMs.toFixed(1)}; two full scans ${scan100k.meanMs.toFixed(2)})`,
        `mean ≤ ${BUDGET.search100kMs} ms`,
        verdict(search100k.meanMs <= BUDGET.search100kMs),
      ],
    ];
    console.log('');
    printTable(rows);
    console.log('');
    console.log(
      `load average (1, 5, 15 min): after the loads ${loadAfterPaint}; after the interactions ` +
        `${loadAfterInteractions}; after the search benchmark ${loadAfterSearch}`,
    );
    console.log(`Chromium ${browser.version()}, Node ${process.version}, ${os.cpus()[0]?.model}`);
    console.log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (rows.some((row) => row[3].startsWith('FAIL'))) process.exitCode = 1;
    failed = false;
  } finally {
    await browser?.close();
    if (server) await stopServer(server);
    if (!given) rmSync(dataDir, { recursive: true, force: true });
    if (!failed) rmSync(serverLog, { force: true });
  }
}

await main();
