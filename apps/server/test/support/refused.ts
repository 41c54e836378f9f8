import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { AppError } from '../../src/lib/errors.ts';
import { countRows } from '../factories.ts';
import { snapshot } from './rows.ts';

/**
 * Sends a request that must be refused: asserts its status and a message, and that no row a
 * collection or link call can touch has changed. Returns the answer.
 */
export async function expectRefused(
  db: Database,
  send: () => Promise<LightMyRequestResponse>,
  status: number,
) {
  const before = await snapshot(db);
  const response = await send();
  expect(response.statusCode).toBe(status);
  expect(response.json()).toMatchObject({ message: expect.any(String) });
  expect(await snapshot(db)).toEqual(before);
  return response;
}

/**
 * A service call that must be refused with `status` and this message, writing no row a
 * collection, link or share call can touch, and no audit entry.
 */
export async function expectServiceRefused(
  db: Database,
  call: () => Promise<unknown>,
  status: number,
  message: string | RegExp,
) {
  const before = { rows: await snapshot(db), audit: await countRows(db, 'audit_log') };
  const error: unknown = await call().then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).statusCode).toBe(status);
  expect((error as AppError).message).toMatch(message);
  expect({ rows: await snapshot(db), audit: await countRows(db, 'audit_log') }).toEqual(before);
}
