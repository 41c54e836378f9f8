import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { constants } from 'node:zlib';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Brotli's quality for answers made per request (decision 0059): the lowest that holds the
 * reference menu to 15 % of its JSON (14.7 %, about 9 ms of CPU for 540 KB; 4 and 5 leave
 * 16.5 % and 15.1 %). Its default, 11, takes about 0.9 s for the same menu.
 */
export const BROTLI_QUALITY = 6;

/** gzip's level, for clients that do not take brotli: zlib's own default. */
export const GZIP_LEVEL = 6;

/** Answers up to this size are compressed in one call; larger ones as a stream. */
export const SYNC_LIMIT = 1024 * 1024;

const EVENT_STREAM = /^text\/event-stream\s*(?:;|$)/i;
const COMPRESSIBLE =
  /^(?:text\/|application\/(?:[\w.-]+\+)?(?:json|xml|javascript)\s*(?:;|$)|image\/svg\+xml)/i;

/**
 * Which answers may be compressed, by their Content-Type. Server-sent events never are: a
 * compressor holds back what it is given until it has enough to encode, so each event would
 * wait in it instead of reaching the browser. (For a type refused here the plugin still asks
 * its MIME list, which does not name `text/event-stream`; a test holds that.)
 */
export const compressibleType = (contentType: string) =>
  !EVENT_STREAM.test(contentType) && COMPRESSIBLE.test(contentType);

/** The settings of the app's compression, shared with the benchmark's baseline B. */
export const compressionOptions: FastifyCompressOptions = {
  // Brotli when the client takes it (every current browser), else gzip, else nothing.
  encodings: ['br', 'gzip'],
  threshold: COMPRESSION_THRESHOLD,
  customTypes: compressibleType,
  brotliOptions: {
    params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
  },
  zlibOptions: { level: GZIP_LEVEL },
  // Answers up to 1 MB (the reference menu is 540 KB) are compressed in one call on the event
  // loop. The plugin's default on two cores, 8 KB, sends larger ones through a zlib stream on
  // the thread pool, which took about twice the CPU for the menu (decision 0059); a 2-core
  // server shared with PostgreSQL has no idle core for it to use.
  syncThreshold: SYNC_LIMIT,
  // Request bodies stay plain JSON (decision 0049): a compressed one is refused as before.
  globalDecompression: false,
};

/**
 * Whether the answer would be compressed for a client that asked: a body of a compressible
 * type, of the threshold or more (a stream whatever its length), not compressed already; and a
 * 304, which stands for such an answer.
 */
function variesByEncoding(reply: FastifyReply, payload: unknown): boolean {
  if (reply.statusCode === 304) return true;
  if (payload == null || reply.hasHeader('content-encoding')) return false;
  if (!compressibleType(String(reply.getHeader('content-type') ?? 'application/json'))) {
    return false;
  }
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    return Buffer.byteLength(payload) >= COMPRESSION_THRESHOLD;
  }
  return true;
}

/** Adds `accept-encoding` to Vary once (lower case, as the compression plugin writes it). */
function addVaryAcceptEncoding(reply: FastifyReply) {
  const current = reply.getHeader('vary');
  const fields = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (fields.some((field) => field === '*' || field.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...fields, 'accept-encoding'].join(', '));
}

/**
 * Compresses answers as the client's Accept-Encoding asks (decision 0059), with `Vary:
 * Accept-Encoding` added to what the route set. The plugin hooks every route declared after
 * it: app.ts registers it before the API's routes, and after the web app's files, which come
 * compressed from the build (static-web.ts). 304 answers have no body to compress.
 */
export const compressionPlugin = fp(async (app: FastifyInstance) => {
  // The plugin names Accept-Encoding in Vary only on what it compressed. The same answer sent
  // plain, to a client that asked for no compression, and its 304 (which carries the Vary of
  // the answer it stands for) name it too, so that a cache keeps the two apart (RFC 9110,
  // 12.5.5). This hook runs before the plugin's own, which then finds it there.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (variesByEncoding(reply, payload)) addVaryAcceptEncoding(reply);
    return payload;
  });
  await app.register(fastifyCompress, compressionOptions);
});
