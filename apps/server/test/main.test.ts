// The server's own start: a bad configuration or an unreachable database gives one clear
// line and a non-zero exit, never a stack trace.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
