import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
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
