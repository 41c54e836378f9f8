// The server's own start: a bad configuration or an unreachable database gives one clear
// line and a non-zero exit, never a stack trace.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSourceServer } from './support/source-server.ts';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('starting the server', () => {
  it.each([
    [{ DATABASE_URL: 'mysql://localhost/x' }, /^signpost: DATABASE_URL must start with postgres/],
    [{ PORT: 'eighty' }, /^signpost: PORT must be a whole number/],
    [
      { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      /^signpost: cannot open PostgreSQL at DATABASE_URL: .*ECONNREFUSED/,
    ],
  ])('stops on %j with one line', (env, line) => {
    const result = start(env);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(line);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('stopping the server', () => {
  it('finishes the request in flight and exits 0 on SIGTERM', { timeout: 60_000 }, async () => {
    const server = await startSourceServer();
    const { child, port, exited } = server;
    try {
      // A request the server has received and is still answering (sign-in runs argon2id)
      // must get its full answer after SIGTERM.
      const { connect } = await import('node:net');
      const body = JSON.stringify({
        type: 'email-password',
        email: 'x@example.test',
        password: 'nope1234',
      });
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const closed = new Promise((resolve) => socket.on('close', resolve));
      const received = new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('incoming request')) resolve();
        }),
      );
      socket.write(
        `POST /api/auth/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      await received;
      child.kill('SIGTERM');
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 401/);
      expect(answer).toContain('INVALID_CREDENTIALS');
      expect(await exited).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe('draining and metrics of a running server', () => {
  it(
    'answers 503 on /readyz for SHUTDOWN_DRAIN_SECONDS after SIGTERM while serving, then exits 0; metrics on their port',
    { timeout: 90_000 },
    async () => {
      const metricsPort = 40_000 + Math.floor(Math.random() * 20_000);
      const server = await startSourceServer({
        SHUTDOWN_DRAIN_SECONDS: '3',
        METRICS_PORT: String(metricsPort),
      });
      const { child, port, exited } = server;
      const base = `http://127.0.0.1:${port}`;
      try {
        expect((await fetch(`${base}/readyz`)).status).toBe(200);
        const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
        expect(metrics.status).toBe(200);
        expect(await metrics.text()).toMatch(/^signpost_http_requests_total\{.*route="\/readyz"/m);
        // Not on the main port.
        expect((await fetch(`${base}/metrics`)).status).toBe(404);

        const signalled = Date.now();
        child.kill('SIGTERM');
        await expect.poll(async () => (await fetch(`${base}/readyz`)).status).toBe(503);
        // Still serving while the balancer drains it.
        expect((await fetch(`${base}/healthz`)).status).toBe(200);
        expect((await fetch(`${base}/api/auth/methods`)).status).toBe(200);
        expect(await exited).toBe(0);
        expect(Date.now() - signalled).toBeGreaterThanOrEqual(3000);
        expect(server.output()).toContain('draining: /readyz answers 503');
      } finally {
        await server.stop();
      }
    },
  );
});

describe('the first run', () => {
  it(
    'without demo data prints a setup code that sets up the organization once',
    { timeout: 180_000 },
    async () => {
      const { spawn } = await import('node:child_process');
      const { mkdtemp, rm } = await import('node:fs/promises');
      const { tmpdir } = await import('node:os');
      const path = await import('node:path');
      const dataDir = await mkdtemp(path.join(tmpdir(), 'signpost-first-run-'));
      const port = 20_000 + Math.floor(Math.random() * 20_000);
      const child = spawn(process.execPath, ['--import', 'tsx', main, '--no-demo'], {
        env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        let output = '';
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes('Signpost is running')) resolve();
          });
          child.on('exit', (code) => reject(new Error(`exited early with ${code}`)));
        });
        expect(output).not.toMatch(/Demo sign-in/);
        const code = /^\s+([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})$/m.exec(output)?.[1];
        expect(code).toBeDefined();

        const base = `http://127.0.0.1:${port}/api/setup`;
        expect(await (await fetch(base)).json()).toEqual({ required: true });
        const body = {
          organizationName: 'First Run Inc.',
          name: 'Ada Admin',
          email: 'ada@first-run.test',
          password: 'a long enough password',
          setupCode: code,
        };
        const post = (payload: object) =>
          fetch(base, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(payload),
          });
        const done = await post(body);
        expect(done.status).toBe(201);
        expect(await done.json()).toEqual({ token: expect.any(String) });
        expect(await (await fetch(base)).json()).toEqual({ required: false });
        expect((await post(body)).status).toBe(409);
      } finally {
        child.kill('SIGKILL');
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
