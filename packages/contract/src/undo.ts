import { Type, type Static } from 'typebox';
import { Id } from './common.ts';
import { UNDO_HEADERS } from './markers.ts';

export { UNDO_HEADERS, UNDO_WINDOW_SECONDS } from './markers.ts';

// Undo of a deletion in the portal (decision 0052). Every deletion of a link, a favorite, a
// collection or a shared collection, and leaving a share, answers 204 as before and names
// in the headers UNDO_HEADERS the snapshot of what went, which the same person restores
// with `POST /api/consumer/undo/{id}` until it expires.

/** The 204 of a deletion that can be undone, with its headers (OpenAPI). */
export const UndoableNoContent = Type.Null({
  description: `No content; the ${UNDO_HEADERS.id} and ${UNDO_HEADERS.expires} headers name the undo`,
  headers: {
    [UNDO_HEADERS.id]: {
      type: 'string',
      description: 'The id to restore what was deleted with: POST /api/consumer/undo/{id}',
    },
    [UNDO_HEADERS.expires]: {
      type: 'string',
      format: 'date-time',
      description: 'Until when it can be restored',
    },
  },
});

/** `POST /undo/{id}`. */
export const UndoParams = Type.Object({ id: Id }, { additionalProperties: false });
export type UndoParams = Static<typeof UndoParams>;
