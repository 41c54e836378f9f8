// The server started from its sources in a process of its own, on a new embedded database
// without demo data: for tests of how the process starts and stops.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export interface SourceServer {
  child: ChildProcessByStdio<null, Readable, Readable>;
  port: number;
  /** Everything the server printed on its standard output so far. */
  output: () => string;
  /** The exit code, once the process has ended. */
  exited: Promise<number | null>;
  /** Kills the process if it still runs and removes its data folder. */
  stop: () => Promise<void>;
}

/** Starts the server with `env` over the usual settings; resolves once it says it runs. */
export async function startSourceServer(env: Record<string, string> = {}): Promise<SourceServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'signpost-process-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', main, '--no-demo'], {
    env: {
      ...process.env,
      // Debug: the tests wait for a request's "incoming request" line.
      LOG_LEVEL: 'debug',
      PORT: String(port),
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const stop = async () => {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => output.includes('Signpost is running') && resolve());
      child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, port, output: () => output, exited, stop };
}
