// A PostgreSQL cluster of the test's own: made with initdb in a temporary folder, on a free
// port, so that the resilience tests can stop, restart and disturb it without touching any
// shared server. PostgreSQL refuses to run as root, so under root the cluster runs as an
// unprivileged user (`postgres` if it exists, else `nobody`).
//
// When PostgreSQL's server programs cannot be found, this throws with a sentence saying
// what to install: the resilience tests fail loudly rather than pass or skip quietly.
import { execFile as execFileCallback } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCallback);

export interface Cluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its folder. */
  destroy(): Promise<void>;
}

/** The folder of initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/N/bin. */
export function postgresBin(): string {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const version of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) {
      candidates.push(path.join(debian, version, 'bin'));
    }
  }
  candidates.push('/usr/local/pgsql/bin', '/usr/bin');
  const found = candidates.find(
    (dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')),
  );
  if (!found) {
    throw new Error(
      'The resilience tests start a PostgreSQL cluster of their own and need its server ' +
        'programs (initdb, pg_ctl): install PostgreSQL (e.g. apt-get install postgresql) or ' +
        'set PG_BIN to the folder that holds them. Searched: ' +
        candidates.join(', '),
    );
  }
  return found;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Who runs the cluster: this user, or an unprivileged one when this is root. */
async function runAs(): Promise<{ uid: number; gid: number; name: string } | null> {
  if (userInfo().uid !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    try {
      const { stdout } = await execFile('id', ['-u', name]);
      const { stdout: gid } = await execFile('id', ['-g', name]);
      return { uid: Number(stdout.trim()), gid: Number(gid.trim()), name };
    } catch {
      // try the next one
    }
  }
  throw new Error(
    'The resilience tests run as root, and PostgreSQL refuses root: make a user named ' +
      '"postgres" (or "nobody") to run the test cluster as, or run the tests as another user.',
  );
}

export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin();
  const user = await runAs();
  const folder = await mkdtemp(path.join(tmpdir(), 'signpost-cluster-'));
  const data = path.join(folder, 'data');
  const log = path.join(folder, 'server.log');
  if (user) {
    await chown(folder, user.uid, user.gid);
    await chmod(folder, 0o700);
  }
  const port = await freePort();

  const run = async (program: string, args: string[]) => {
    const command = user ? 'setpriv' : path.join(bin, program);
    const all = user
      ? [
          `--reuid=${user.uid}`,
          `--regid=${user.gid}`,
          '--clear-groups',
          '--',
          path.join(bin, program),
          ...args,
        ]
      : args;
    try {
      await execFile(command, all, { cwd: folder, timeout: 60_000 });
    } catch (error) {
      const logText = await readFile(log, 'utf8').catch(() => '');
      throw new Error(
        `${program} ${args.join(' ')} failed: ${(error as Error).message}\n${logText.slice(-2000)}`,
        { cause: error },
      );
    }
  };

  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-N', '-E', 'UTF8']);
  const options = [
    `-p ${port}`,
    `-k ${folder}`,
    '-c listen_addresses=127.0.0.1',
    // The operating system never crashes in these tests; what is written is kept.
    '-c fsync=off',
    '-c max_connections=60',
  ].join(' ');
  const start = () =>
    run('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', options]);
  const stop = (mode: 'fast' | 'immediate' = 'fast') =>
    run('pg_ctl', ['stop', '-w', '-t', '60', '-D', data, '-m', mode]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    destroy: async () => {
      await stop('immediate').catch(() => {});
      await rm(folder, { recursive: true, force: true });
    },
  };
}
