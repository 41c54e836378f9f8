import { test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { expect } from '@playwright/test';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A server of its own, on an empty embedded database without demo data: a first run. */
export interface FreshServer {
  baseURL: string;
  /** The one-time setup code the server printed at start. */
  setupCode: string;
  /** Everything the server printed so far. */
  output: () => string;
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

/** The line of the setup code the server prints at a first run: three groups of four. */
/** How long a server of a journey's own may take to start and answer. */
export const STARTUP_LIMIT_MS = 180_000;

export const SETUP_CODE = /^\s+([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})\s*$/m;

/** A server process of a journey's own, on its own embedded database. */
export interface OwnServer {
  port: number;
  /** Everything the server printed so far. */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the build the journeys' main server was started from (playwright.config.ts builds
 * it) on a free port and a new data folder, with `env` over the usual settings, and waits
 * until `ready` says so (it is asked about every 100 ms) or `STARTUP_LIMIT_MS` passes.
 */
export async function startOwnServer(
  env: (port: number) => Record<string, string>,
  ready: (port: number, output: string) => Promise<boolean>,
): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signpost-e2e-own-'));
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      ...env(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  // A first start migrates an empty embedded database: about 12 s of processor time, so
  // on two cores shared with the other journeys and the component tests it can take a minute.
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the server stopped:\n${output}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server was not ready within ${STARTUP_LIMIT_MS / 1000} s:\n${output}`);
    }
    try {
      if (await ready(port, output)) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { port, output: () => output, stop };
}

/** Starts a server of its own on an empty database, and reads the setup code it printed. */
export async function startFreshServer(): Promise<{
  server: FreshServer;
  stop: () => Promise<void>;
}> {
  // Listening once the setup code is printed; wait for the first answer all the same.
  const own = await startOwnServer(
    () => ({}),
    async (port, output) =>
      SETUP_CODE.test(output) && (await fetch(`http://127.0.0.1:${port}/api/auth/methods`)).ok,
  );
  const setupCode = SETUP_CODE.exec(own.output())![1]!;
  const baseURL = `http://127.0.0.1:${own.port}`;
  return { server: { baseURL, setupCode, output: own.output }, stop: own.stop };
}

/**
 * Journeys of a first run: each worker starts one fresh server, and the browser's base
 * address is that server. Like every journey, nothing leaves this machine.
 */
export const test = base.extend<object, { freshServer: FreshServer }>({
  freshServer: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other
    async ({}, provide) => {
      const { server, stop } = await startFreshServer();
      try {
        await provide(server);
      } finally {
        await stop();
      }
    },
    { scope: 'worker', timeout: STARTUP_LIMIT_MS + 30_000 },
  ],
  baseURL: async ({ freshServer }, provide) => provide(freshServer.baseURL),
  context: async ({ context, freshServer }, provide) => {
    const local = new URL(freshServer.baseURL).origin;
    await context.route(
      (url) => url.origin !== local,
      (route) => route.abort('blockedbyclient'),
    );
    await provide(context);
  },
});
