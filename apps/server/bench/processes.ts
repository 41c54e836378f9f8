// Child processes of the benchmark: the real server, the baseline, the load generator.
// Every child is ended by its own id when the benchmark ends, whatever happens.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadSpec } from './load.ts';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const SERVER_DIR = path.resolve(BENCH_DIR, '..');
export const SERVER_MAIN = path.join(SERVER_DIR, 'dist', 'main.js');

const children = new Set<ChildProcess>();

/** Ends every child still running (SIGTERM, then SIGKILL after 5 s). */
export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stop(child)));
}

export function stop(child: ChildProcess): Promise<void> {
  children.delete(child);
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

function start(
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  { ipc = false }: { ipc?: boolean } = {},
): ChildProcess {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: { ...process.env, ...env },
    stdio: ipc ? ['ignore', log, log, 'ipc'] : ['ignore', log, log],
  });
  children.add(child);
  return child;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntilUp(child: ChildProcess, url: string, logFile: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`the process at ${url} exited (${child.exitCode}):\n${log.slice(-2000)}`);
    }
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`nothing answered at ${url} within two minutes; see ${logFile}`);
}

function serverEnv(
  port: number,
  database: { url: string } | { dataDir: string },
  extraEnv: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    WEB_DIR: '',
    DATABASE_URL: 'url' in database ? database.url : '',
    DATA_DIR: 'dataDir' in database ? database.dataDir : '',
    // The data set's links point at real sites (github.com, figma.com, …): a server of the
    // benchmark must not fetch their icons or check them (decisions 0068, 0069). The link
    // check rows run their rounds against a local server (bench/link-checks.ts).
    OUTBOUND_REQUESTS: 'false',
    ...extraEnv,
  };
}

/** The real server, built, in its own process. */
export async function startServer(
  port: number,
  database: { url: string } | { dataDir: string },
  logFile: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<ChildProcess> {
  const child = start([SERVER_MAIN], serverEnv(port, database, extraEnv), logFile);
  await waitUntilUp(child, `http://127.0.0.1:${port}/api/auth/methods`, logFile);
  return child;
}

/**
 * The server of the link check rows (bench/link-check-server.ts): the application as
 * main.ts builds it, run from its sources, that runs a link check round when asked over IPC.
 */
export async function startLinkCheckServer(
  port: number,
  database: { url: string },
  logFile: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<ChildProcess> {
  const child = start(
    ['--import', 'tsx', path.join(BENCH_DIR, 'link-check-server.ts')],
    serverEnv(port, database, extraEnv),
    logFile,
    { ipc: true },
  );
  await waitUntilUp(child, `http://127.0.0.1:${port}/api/auth/methods`, logFile);
  return child;
}

/** The bare Fastify route of baseline B, serving `menuFile`. */
export async function startBaseline(
  port: number,
  menuFile: string,
  logFile: string,
): Promise<ChildProcess> {
  const child = start(
    ['--import', 'tsx', path.join(BENCH_DIR, 'baseline.ts'), menuFile, String(port)],
    {},
    logFile,
  );
  await waitUntilUp(child, `http://127.0.0.1:${port}/api/consumer/menu`, logFile);
  return child;
}

/** Runs autocannon in a separate process and returns its figures. */
let loads = 0;

export async function runLoad(spec: LoadSpec, workDir: string): Promise<LoadResult> {
  // Numbered: two loads may start in the same millisecond (a load and an observer).
  const specFile = path.join(workDir, `load-${(loads += 1)}.json`);
  await writeFile(specFile, JSON.stringify(spec));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(BENCH_DIR, 'load.ts'), specFile],
    { cwd: SERVER_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  children.delete(child);
  const line = out.trim().split('\n').pop();
  if (code !== 0 || !line) throw new Error(`the load generator failed (${code}): ${err}`);
  return JSON.parse(line) as LoadResult;
}

/** Resident memory of a process in MB, from /proc (Linux). */
export async function rssMb(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const match = status?.match(/^VmRSS:\s+(\d+)\s+kB/m);
  return match ? Number(match[1]) / 1024 : null;
}

/** Samples a process's memory while `work` runs; returns the work's result and the peak. */
export async function withPeakRss<T>(
  pid: number | undefined,
  work: () => Promise<T>,
): Promise<{ result: T; peakMb: number | null }> {
  let peak: number | null = null;
  let running = true;
  const sampler = (async () => {
    while (running) {
      const now = await rssMb(pid);
      if (now !== null) peak = Math.max(peak ?? 0, now);
      await sleep(200);
    }
  })();
  try {
    const result = await work();
    return { result, peakMb: peak };
  } finally {
    running = false;
    await sampler;
  }
}
