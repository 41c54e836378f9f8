import { AppError } from '../../src/lib/errors.ts';

/**
 * What a call that must be refused threw: its status, code and message. Fails the test when
 * the call was allowed or threw something other than the server's AppError.
 */
export async function refusal(work: Promise<unknown>) {
  const error: unknown = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) {
    throw new Error(`expected a refusal, got ${error === null ? 'an answer' : String(error)}`);
  }
  return { statusCode: error.statusCode, code: error.code, message: error.message };
}
