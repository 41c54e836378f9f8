import { useEffect } from 'react';
import type { ServerMessage } from '../lib/server-message';

/** The id of a field's message, from the field's id. */
const messageId = (fieldId: string) => `${fieldId}-message`;

/**
 * The attributes that tie a field to the server's message about it: marked invalid, and
 * described by the message, so that a screen reader reads it with the field.
 */
export function invalidFieldProps(fieldId: string, message: string | null | undefined) {
  return message
    ? { 'aria-invalid': true as const, 'aria-describedby': messageId(fieldId) }
    : { 'aria-invalid': undefined, 'aria-describedby': undefined };
}

/** The server's message under the field it is about (after the field's label). */
export function FieldMessage({
  fieldId,
  message,
}: {
  fieldId: string;
  message: string | null | undefined;
}) {
  return message ? (
    <p id={messageId(fieldId)} className="form-error field-message">
      {message}
    </p>
  ) : null;
}

/** The message of a field, when `problem` is about that field. */
export function messageFor<F extends string>(
  problem: ServerMessage<F> | null | undefined,
  field: F,
) {
  return problem?.field === field ? problem.text : null;
}

/**
 * Moves focus to the field a new failure is about: the person lands where the change is
 * needed, and hears the message as the field's description.
 */
export function useFocusField<F extends string>(
  problem: ServerMessage<F> | null | undefined,
  fieldId: (field: F) => string,
) {
  useEffect(() => {
    if (problem?.field) document.getElementById(fieldId(problem.field))?.focus();
    // Once per failure: a new problem is a new failure; the ids do not change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [problem]);
}
