import { UNDO_HEADERS } from '@signpost/contract';
import type { FastifyReply } from 'fastify';

/**
 * The 204 of a deletion or a change that can be undone (decisions 0052, 0076): the spec's
 * answer, with the snapshot's id and expiry in headers. A change that changed nothing has
 * none (`null`): there is nothing to undo.
 */
export function sendUndoable(reply: FastifyReply, ticket: { id: string; expiresAt: Date } | null) {
  if (ticket) {
    reply.header(UNDO_HEADERS.id, ticket.id);
    reply.header(UNDO_HEADERS.expires, ticket.expiresAt.toISOString());
  }
  return reply.status(204).send(null);
}
