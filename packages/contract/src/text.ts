/**
 * What a text of a request may hold (decision 0049). Every string of every body, query string
 * and path parameter is checked by the server before a route sees it, against the schema of
 * its place:
 *
 * - No C0 control character (U+0000–U+001F), DEL (U+007F) or C1 control (U+0080–U+009F),
 *   no lone surrogate (JSON can spell `"\ud800"`) and no noncharacter U+FFFE or U+FFFF.
 *   PostgreSQL refuses NUL outright; the others are never typed text and only confuse logs,
 *   terminals and other clients.
 * - Except in a multi-line text (a schema with `MULTILINE`, such as a description): there a
 *   tab, a line feed and a carriage return are text too.
 *
 * Then the bidirectional embeddings, overrides and isolates are taken out of every string but
 * a password (decision 0081): nothing the server stores or sends on can reorder what a
 * program shows.
 */

/** The schema keyword that marks a multi-line text. */
export const MULTILINE = 'x-multiline';

/** Spread into the options of a `Type.String` of a multi-line text. */
export const multiline = { [MULTILINE]: true } as const;

// eslint-disable-next-line no-control-regex
const LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|\p{Cs}/u;
const MULTILINE_FORBIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|\p{Cs}/u;

/** What is wrong with a text, after its field's label ("The name cannot …"), or null. */
export function textProblem(value: string, allowLines = false): string | null {
  const match = (allowLines ? MULTILINE_FORBIDDEN : LINE_FORBIDDEN).exec(value);
  if (!match) return null;
  const code = match[0].codePointAt(0) ?? 0;
  const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code >= 0xd800 && code <= 0xdfff) {
    return `cannot contain a lone surrogate (${name}): it is not a character`;
  }
  if (code === 0xfffe || code === 0xffff) {
    return `cannot contain ${name}: it is not a character`;
  }
  if (!allowLines && (code === 0x09 || code === 0x0a || code === 0x0d)) {
    return `needs to be one line: tabs and line breaks (${name}) are not allowed here`;
  }
  return `cannot contain the control character ${name}`;
}

/** The schema keyword that marks a name: it must hold a visible character. */
export const VISIBLE = 'x-visible';

/** Spread into the options of a `Type.String` of a name. */
export const visibleText = { [VISIBLE]: true } as const;

// What shows nothing on its own: spaces of every kind, format characters (zero-width spaces
// and joiners, bidirectional marks, overrides and isolates, the byte-order mark, soft
// hyphens), combining marks and variation selectors without a base, controls, and the blank
// letters (Hangul fillers, the braille blank).
const INVISIBLE = /[\s\p{Z}\p{Cf}\p{Cc}\p{M}\u115f\u1160\u2800\u3164\uffa0]/gu;

/** Whether a text shows nothing once its invisible characters are taken out. */
export function isBlank(value: string): boolean {
  return value.replace(INVISIBLE, '') === '';
}

/** The problem of a blank name, after the field's label. */
export const BLANK_PROBLEM =
  'cannot be blank: spaces and invisible characters alone are not a name';

/**
 * The explicit bidirectional formatting characters: the embeddings and overrides U+202A–U+202E
 * (LRE, RLE, PDF, LRO, RLO) and the isolates U+2066–U+2069 (LRI, RLI, FSI, PDI). An override
 * turns the rest of a name around (`invoice\u202Egnp.exe` shows as "invoiceexe.png"); an
 * embedding or an isolate, paired or not, can swap whole words (`\u2067exe.png\u2069` shows as
 * "png.exe" in a left-to-right line). The marks U+200E, U+200F and U+061C are not among them:
 * they are needed to write mixed right-to-left text and cannot turn letters around.
 */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** The text without bidirectional embeddings, overrides and isolates (decision 0081). */
export function withoutBidiControls(value: string): string {
  return value.replace(BIDI_CONTROLS, '');
}

/** Whether a text holds a bidirectional embedding, override or isolate. */
export function hasBidiControls(value: string): boolean {
  return /[\u202a-\u202e\u2066-\u2069]/.test(value);
}

/**
 * The schema keyword of a text taken exactly as typed: a password. It keeps its bidirectional
 * controls, since it is never shown and a password set with one must go on working.
 */
export const AS_TYPED = 'x-as-typed';

/** Spread into the options of a `Type.String` of a password. */
export const asTyped = { [AS_TYPED]: true } as const;
