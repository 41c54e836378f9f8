import type { FastifyRequest } from 'fastify';
import type { AuthContext } from './auth-context.ts';
import { unauthorized } from './errors.ts';

/** Where a request came from: what the audit log keeps of it. */
export interface AuditOrigin {
  ip?: string | null;
  userAgent?: string | null;
}

const clip = (text: string | undefined, max: number) =>
  text === undefined ? null : text.slice(0, max);

/** The caller of a route behind `authenticate` (plugins/auth.ts). */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw unauthorized();
  return request.authContext;
}

/** The address and browser of a request. */
export function originOf(request: FastifyRequest): Required<AuditOrigin> {
  return { ip: request.ip, userAgent: clip(request.headers['user-agent'], 500) };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling: set by `authenticate` from a live session or personal access token. */
    authContext: AuthContext | null;
  }
}
