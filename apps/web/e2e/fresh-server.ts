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
export const SETUP_CODE = /^\s+([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})\s*$/m;

async function startFreshServer(): Promise<{ server: FreshServer; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signpost-e2e-fresh-'));
  const baseURL = `http://127.0.0.1:${port}`;
  // The build the journeys' main server was started from (playwright.config.ts builds it).
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const deadline = Date.now() + 60_000;
  let setupCode: string | undefined;
  while (!setupCode) {
    if (child.exitCode !== null) throw new Error(`the fresh server stopped:\n${output}`);
    if (Date.now() > deadline) throw new Error(`no setup code within 60 s:\n${output}`);
    setupCode = SETUP_CODE.exec(output)?.[1];
    if (!setupCode) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Listening once the code is printed; wait for the first answer all the same.
  for (;;) {
    try {
      if ((await fetch(`${baseURL}/api/auth/methods`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the fresh server does not answer:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { server: { baseURL, setupCode, output: () => output }, stop };
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
    { scope: 'worker' },
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
