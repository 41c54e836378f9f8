import i18next from 'i18next';

/** The reason phrases of the statuses a failing site answers most (RFC 9110), as sites send them. */
const PHRASES: Record<number, string> = {
  400: 'Bad Request',
  402: 'Payment Required',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  410: 'Gone',
  415: 'Unsupported Media Type',
  418: "I'm a teapot",
  421: 'Misdirected Request',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  508: 'Loop Detected',
  511: 'Network Authentication Required',
};

/** A status as people meet it: "404 Not Found", or the number alone when it has no phrase here. */
export function statusPhrase(status: number): string {
  const phrase = PHRASES[status];
  return phrase ? `${status} ${phrase}` : String(status);
}

/** The kinds of failure said in words of their own; any other is "the check failed". */
export type FailureReason =
  'status' | 'dns' | 'timeout' | 'network' | 'too-many-redirects' | 'other';

const KINDS: readonly string[] = ['dns', 'timeout', 'network', 'too-many-redirects'];

/**
 * Why a broken link's last check failed: the site's status when it answered, else the kind of
 * failure (decision 0069: a name that does not resolve, a timeout, no connection, redirects
 * in circles).
 */
export function failureReason(status: number | null, failureKind: string | null): FailureReason {
  if (failureKind && KINDS.includes(failureKind)) return failureKind as FailureReason;
  if (status !== null) return 'status';
  return 'other';
}

/** A day in the person's language: "Nov 3", with the year when it is not this one. */
export function formatDay(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameYear = date.getFullYear() === now.getFullYear();
  return new Intl.DateTimeFormat(i18next.language, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(date);
}
