import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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

// The config is evaluated again in every worker: the first evaluation picks the port and the
// data folder, and the workers inherit them through the environment.
process.env.SIGNPOST_E2E_PORT ??= String(await freePort());
process.env.SIGNPOST_E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'signpost-e2e-'));
const port = Number(process.env.SIGNPOST_E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  // Two browsers at once on two cores: the journeys spend most of their time waiting on the
  // page, and each works on data of its own (e2e/people-fixtures.ts).
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/e2e.json' }],
    ['./e2e/assertion-count.reporter.ts'],
  ],
  outputDir: 'test-results/artifacts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
      ],
    },
  },
  webServer: {
    // The real server on a fresh embedded database with the demo organization.
    command: 'npm run build && node apps/server/dist/main.js',
    cwd: repoRoot,
    url: `${baseURL}/api/auth/methods`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      // The address the browser uses, so that single sign-on returns to the same origin.
      PUBLIC_URL: baseURL,
      DATA_DIR: process.env.SIGNPOST_E2E_DATA_DIR,
      DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
    },
  },
});
