// Every statement of the server runs on PostgreSQL (decision 0074). Route tests run on the
// embedded database only, so in the PostgreSQL pass the repositories the tests use are
// recording ones: each method notes its name when called. The global teardown of the pass
// compares the names noted with every method of every repository, and fails the run when the
// whole pass ran and a method was never called on PostgreSQL: a statement only PGlite ran.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import type { Repositories } from '../src/root.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder where the PostgreSQL pass notes the repository methods its tests called. */
    statementCoverageDir: string;
  }
}

/** `repository.method` of every method of every repository. */
export function methodsOf(repositories: Repositories): string[] {
  return Object.entries(repositories).flatMap(([name, repository]) =>
    Object.keys(repository).map((method) => `${name}.${method}`),
  );
}

const called = new Set<string>();

/** Writes what was noted so far, after each file that recorded (files of a worker share it). */
function save(folder: string) {
  mkdirSync(folder, { recursive: true });
  const name = `${process.pid}-${randomBytes(4).toString('hex')}.json`;
  writeFileSync(path.join(folder, name), JSON.stringify([...called]));
}

/**
 * The repositories, each method wrapped to note its name, in the PostgreSQL pass; as they
 * are elsewhere.
 */
export function recorded(repositories: Repositories): Repositories {
  if (process.env.SIGNPOST_TEST_DB !== 'postgres') return repositories;
  const folder = inject('statementCoverageDir');
  afterAll(() => save(folder));
  const wrapped: Record<string, Record<string, unknown>> = {};
  for (const [name, repository] of Object.entries(repositories)) {
    wrapped[name] = Object.fromEntries(
      Object.entries(repository).map(([method, fn]) => [
        method,
        typeof fn === 'function'
          ? (...args: unknown[]) => {
              called.add(`${name}.${method}`);
              return (fn as (...a: unknown[]) => unknown).apply(repository, args);
            }
          : fn,
      ]),
    );
  }
  return wrapped as unknown as Repositories;
}

/** The methods of `all` no worker noted, from the folder of the pass. */
export function uncalled(folder: string, all: string[]): string[] {
  const noted = new Set<string>();
  for (const file of readdirSync(folder)) {
    for (const name of JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as string[]) {
      noted.add(name);
    }
  }
  return all.filter((name) => !noted.has(name));
}
