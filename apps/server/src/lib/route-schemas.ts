import { ErrorResponse } from '@signpost/contract';

/** The OpenAPI tag and bearer security of every portal call. */
export const consumerRoute = { tags: ['consumer'], security: [{ bearer: [] }] };

/** The OpenAPI tag and bearer security of every administration call. */
export const adminRoute = { tags: ['admin'], security: [{ bearer: [] }] };

/** The error answers of a portal call that names things by id. */
export const errorAnswers = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};

/** The same, for a call with a body, which can also be too large. */
export const bodyErrorAnswers = { ...errorAnswers, 413: ErrorResponse };
