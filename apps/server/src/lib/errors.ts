import type { ErrorCode } from '@signpost/contract';

/** An error meant for the client: its status, stable code and message are sent as they are. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The property of the request the message is about, when it is about one (decision 0078). */
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError(400, 'VALIDATION_ERROR', message);
/** A refused value of one field, in words ("Enter the organization's name."). */
export const fieldRefused = (field: string, message: string) =>
  new AppError(400, 'VALIDATION_ERROR', message, {}, field);
export const unauthorized = (message = 'Sign in to continue.') =>
  new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message: string) => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message: string) => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string) => new AppError(409, 'CONFLICT', message);
