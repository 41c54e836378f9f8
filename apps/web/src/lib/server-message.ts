import i18next from 'i18next';
import { ApiError, errorField, errorMessage, NetworkError } from './api-client';
import './panel-texts';

/**
 * The answers whose message the server writes for the person who made the request: a value
 * it refuses (400), a rule of who may do what (403), a state that forbids it (409), too many
 * attempts (429). A call that got no answer at all says that the change waits for the
 * network (decision 0065). Others get the form's own polite text: a 5xx's stays in the
 * server's log, a 404's names ids nobody typed, and a 401 is a session that ended (spec §8).
 */
export const SERVER_MESSAGE_STATUSES: readonly number[] = [400, 403, 409, 429];

/** What a failed call says, and the field of the form it is about, if it names one. */
export interface ServerMessage<F extends string = string> {
  field: F | null;
  text: string;
}

// `body.url must …`, `body/url must …`, `body.memberIds.3 must …`: the field, then the rest.
const FIELD_PATH = /^body[./]([A-Za-z]+)(?:[./][^\s]*)?(?=\s)(.*)$/s;

// The validator's few phrasings a form can meet, in everyday words.
const PHRASES: [RegExp, string][] = [
  [/ must NOT have fewer than 1 characters?\b/, ' must not be empty'],
  [/ must NOT have fewer than (\d+) characters\b/, ' must be at least $1 characters long'],
  [/ must NOT have more than (\d+) characters\b/, ' must be at most $1 characters long'],
  [/ must NOT have fewer than (\d+) items?\b/, ' must hold at least $1'],
  [/ must NOT have more than (\d+) items\b/, ' must hold at most $1'],
  [/ must be >= (\d+)/, ' must be at least $1'],
  [/ must be <= (\d+)/, ' must be at most $1'],
  [/ NOT /g, ' not '],
];

function everyday(text: string) {
  return PHRASES.reduce((result, [pattern, words]) => result.replace(pattern, words), text);
}

/**
 * A message that names its field by its path, as servers before decision 0078 wrote them,
 * in the words of the form: a field path (`body.url`) becomes the
 * field's label ("Link address must be an http, https or mailto address."), and the field is
 * returned when `labels` has it. A path the form has no label for is kept as the server
 * wrote it.
 */
export function readableMessage<F extends string>(
  message: string,
  labels: Readonly<Partial<Record<F, string>>>,
): ServerMessage<F> {
  const match = FIELD_PATH.exec(message.trim());
  const name = match?.[1] as F | undefined;
  const label = name ? labels[name] : undefined;
  if (!match || !name || !label) return { field: null, text: everyday(message.trim()) };
  const sentence = `${label}${everyday(match[2] ?? '')}`.trim();
  return { field: name, text: /[.!?]$/.test(sentence) ? sentence : `${sentence}.` };
}

/**
 * What a failed call should show, when the server wrote it for people (see
 * SERVER_MESSAGE_STATUSES): its message, made readable, and the field it names among
 * `labels`. Null for every other failure: the caller shows its own text.
 */
export function serverMessage<F extends string>(
  error: unknown,
  labels: Readonly<Partial<Record<F, string>>> = {} as Record<F, string>,
): ServerMessage<F> | null {
  // No answer at all: the change waits for the network, and the form keeps what was typed.
  if (error instanceof NetworkError) return { field: null, text: i18next.t('offline.writeWaits') };
  if (!(error instanceof ApiError) || !SERVER_MESSAGE_STATUSES.includes(error.status)) return null;
  const message = errorMessage(error.data);
  if (!message?.trim()) return null;
  // The server says which field, and says it in words (decision 0078).
  const field = errorField(error.data) as F | null;
  if (field && labels[field]) return { field, text: message.trim() };
  return readableMessage(message, labels);
}
