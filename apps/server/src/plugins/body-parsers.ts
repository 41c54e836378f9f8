import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';

// What a request body may be (decision 0049): JSON in UTF-8, and nothing else. Fastify also
// parses `text/plain` by default; a route of this API never takes text, so such a body — and
// a body of any other type — is 415 before any handler runs, and changes nothing.

/** Charsets a JSON body may declare (RFC 8259: JSON exchanged between systems is UTF-8). */
const UTF8 = new Set(['utf-8', 'utf8']);

function declaredCharset(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '');
  return match ? (match[1] ?? '').toLowerCase() : null;
}

/**
 * Leaves JSON as the one body type the app parses, and parses it strictly: bytes that are not
 * UTF-8 (an overlong `C0 AF`, a stray `FF`) are 400 instead of being read as U+FFFD, and a
 * charset other than UTF-8 is 415. The text is then parsed by Fastify's own secure parser,
 * which refuses `__proto__` and `constructor.prototype` keys. Called on the root instance
 * before any route is registered (a scope copies its parsers when it is registered); the
 * body limit is the app's (64 KiB).
 */
export function acceptJsonBodiesOnly(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  acceptJsonAs(app, 'application/json');
}

/**
 * Parses bodies of a JSON media type (`application/json`, and SCIM's `application/scim+json`
 * in its scope) strictly: UTF-8 only, Fastify's secure parser.
 */
export function acceptJsonAs(app: FastifyInstance, mediaType: string) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(mediaType, { parseAs: 'buffer' }, (request, body, done) => {
    const charset = declaredCharset(request.headers['content-type']);
    if (charset !== null && !UTF8.has(charset)) {
      done(
        new AppError(
          415,
          'VALIDATION_ERROR',
          'A JSON body must be encoded in UTF-8; leave out the charset or declare charset=utf-8.',
        ),
        undefined,
      );
      return;
    }
    let text: string;
    try {
      // `fatal`: an invalid sequence throws instead of becoming U+FFFD.
      text = new TextDecoder('utf-8', { fatal: true }).decode(body as Buffer);
    } catch {
      done(
        new AppError(400, 'VALIDATION_ERROR', 'The body is not valid UTF-8: send JSON in UTF-8.'),
        undefined,
      );
      return;
    }
    parseJson(request, text, done);
  });
}
