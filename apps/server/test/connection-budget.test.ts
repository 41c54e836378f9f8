// The connection budget of docs/operations.md ("Database connections") against the code: the
// request pool's bound, the job queue's pool and the one LISTEN connection add up to the
// figure the operator sizes max_connections by, and deployment.md says the same.
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_POOL_SIZE, openDatabase } from '../src/db/client.ts';
import { JOB_QUEUE_POOL_SIZE } from '../src/jobs/queue.ts';

const docs = new URL('../../../docs/', import.meta.url);
const operations = await readFile(new URL('operations.md', docs), 'utf8');
const deployment = await readFile(new URL('deployment.md', docs), 'utf8');

/** The text of a section of operations.md, from its heading to the next. */
function section(heading: string): string {
  const start = operations.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = operations.indexOf('\n## ', start + 1);
  return operations.slice(start, end === -1 ? undefined : end);
}

// The live updates' LISTEN: one connection of its own (modules/live/live.listener.ts).
const LISTEN = 1;
const PER_INSTANCE = DATABASE_POOL_SIZE + JOB_QUEUE_POOL_SIZE + LISTEN;

describe('the connection budget in the docs', () => {
  it('is the pool the server opens by default, with the queue’s and LISTEN', async () => {
    // The pool's bound as the server opens it (it connects only when asked: nothing here does).
    const database = await openDatabase({
      url: 'postgres://nobody@127.0.0.1:1/none',
      dataDir: null,
    });
    afterAll(() => database.close());
    expect(database.pool?.stats().max).toBe(DATABASE_POOL_SIZE);

    const text = section('Database connections');
    const rows = [...text.matchAll(/^\|\s+\**(\d+)\**\s+\|/gm)].map(([, n]) => Number(n));
    expect(rows).toEqual([DATABASE_POOL_SIZE, JOB_QUEUE_POOL_SIZE, LISTEN, PER_INSTANCE]);
    // Without the queue (no mail, no outbound requests), its pool is not opened.
    expect(text).toContain(`**${PER_INSTANCE - JOB_QUEUE_POOL_SIZE}** with neither`);
    expect(text).toContain(`instances × ${PER_INSTANCE}`);
    // PostgreSQL's default max_connections (100), less its 3 reserved and one admin command.
    const instances = Math.floor((100 - 3 - 1) / PER_INSTANCE);
    expect(text).toContain(`default of 100, that is ${instances} instances`);
  });

  it('is the same in the summary of several instances and in deployment.md', () => {
    // Compared as words, whatever the lines' breaks.
    const words = (text: string) => text.replace(/\s+/g, ' ');
    const summary = words(section('Past one machine'));
    expect(summary).toContain(`up to ${PER_INSTANCE} PostgreSQL connections`);
    expect(summary).toContain(`instances × ${PER_INSTANCE}`);
    expect(words(deployment)).toContain(`up to ${PER_INSTANCE} PostgreSQL connections`);
    expect(words(deployment)).toContain(`pods × ${PER_INSTANCE}`);
    // No figure of before is left.
    expect(`${operations}\n${deployment}`).not.toMatch(/× 11\b/);
  });
});
