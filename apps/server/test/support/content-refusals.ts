// What the access layer answers when it refuses a change of content (modules/access), and a
// check that a refused call changed nothing: shared by the content services' tests.
import { expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { AppError } from '../../src/lib/errors.ts';
import { snapshot } from './rows.ts';

export const OWNER_ONLY = 'Only the person who owns this collection can do that.';
export const READ_ONLY =
  'Only the editors of this team or an administrator can change it; suggest a link instead.';
export const ORGANIZATION_READ_ONLY =
  'Only an administrator can change the organization space; suggest a link instead.';
export const ADDED_BY_OTHERS =
  'Only the person who added this link, or who owns the collection, can.';
export const OTHER_SPACE =
  'Team and organization content stays in its own space: move it only between collections of that space.';

/** The message of a 403, by the space refused, or a link someone else added to a share. */
export const REFUSALS = {
  personal: OWNER_ONLY,
  team: READ_ONLY,
  organization: ORGANIZATION_READ_ONLY,
  added: ADDED_BY_OTHERS,
};
export type Refused = keyof typeof REFUSALS;

/** Runs a call that must be refused: its AppError, and no content row changed. */
export async function expectRefusedUnchanged(
  db: Database,
  call: () => Promise<unknown>,
  statusCode: number,
  message: string,
) {
  const before = await snapshot(db);
  const error = await call().then(
    () => new Error('the call was allowed'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ statusCode, message });
  expect(await snapshot(db)).toEqual(before);
}
