import { UNDO_HEADERS } from '@signpost/contract';
import type { FastifyReply } from 'fastify';

/**
 * The 204 of a deletion that can be undone (decision 0052): the spec's answer, with the
 * snapshot's id and expiry in headers.
 */
export function sendUndoable(reply: FastifyReply, ticket: { id: string; expiresAt: Date }) {
  reply.header(UNDO_HEADERS.id, ticket.id);
  reply.header(UNDO_HEADERS.expires, ticket.expiresAt.toISOString());
  return reply.status(204).send(null);
}
