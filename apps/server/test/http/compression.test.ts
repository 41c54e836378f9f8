// Compression of the API's answers (decision 0059): on the real app and its migrated
// database, and, for server-sent events, on a tiny app with the same plugin.
import Fastify from 'fastify';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  COMPRESSION_THRESHOLD,
  compressibleType,
  compressionPlugin,
} from '../../src/plugins/compression.ts';
import { createTestApp } from '../app.ts';
import {
  createCollection,
  createLink,
  createOrganization,
  createUser,
  signIn,
} from '../factories.ts';

const { app, db } = await createTestApp();

/** What a browser sends. */
const BROWSER = 'gzip, deflate, br, zstd';

const varyFields = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((field) => field.trim().toLowerCase())
    .filter(Boolean);

describe('compressed answers of the API', async () => {
  const org = await createOrganization(db);
  const me = await createUser(db, org.id);
  const collection = await createCollection(db, { organizationId: org.id });
  for (let i = 0; i < 40; i += 1) {
    await createLink(db, collection, {
      name: `Handbook page ${i}`,
      description: `What the team keeps about page ${i}`,
      url: `https://handbook.example.com/pages/${i}`,
    });
  }
  const { headers } = await signIn(app, me);
  const menu = (extra: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/api/consumer/menu', headers: { ...headers, ...extra } });
  const plain = await menu();

  it('has a menu large enough to be compressed', () => {
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(4 * COMPRESSION_THRESHOLD);
  });

  it('sends brotli when the client takes it, as browsers do', async () => {
    for (const acceptEncoding of [BROWSER, 'br', 'gzip;q=0.5, br']) {
      const response = await menu({ 'accept-encoding': acceptEncoding });
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe('br');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      // Compressed in one call (up to 1 MB), so its length is known and sent.
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(brotliDecompressSync(response.rawPayload).toString()).toBe(plain.body);
    }
  });

  it('sends gzip when the client takes gzip and not brotli', async () => {
    for (const acceptEncoding of ['gzip', 'gzip, deflate', 'br;q=0, gzip', 'x-gzip']) {
      const response = await menu({ 'accept-encoding': acceptEncoding });
      expect(response.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(gunzipSync(response.rawPayload).toString()).toBe(plain.body);
    }
  });

  it('sends the JSON itself when the client takes no compression it knows', async () => {
    for (const acceptEncoding of ['identity', 'deflate;q=0, compress', 'gzip;q=0, br;q=0']) {
      const response = await menu({ 'accept-encoding': acceptEncoding });
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(response.body).toBe(plain.body);
    }
  });

  it('keeps the ETag and Cache-Control, and adds Accept-Encoding to Vary once', async () => {
    const brotli = await menu({ 'accept-encoding': BROWSER });
    const gzip = await menu({ 'accept-encoding': 'gzip' });
    for (const response of [plain, brotli, gzip]) {
      // The ETag names the menu's version, whatever its coding; it is weak, as a validator
      // shared by several codings of one content must be.
      expect(response.headers.etag).toBe(plain.headers.etag);
      expect(response.headers.etag).toMatch(/^W\//);
      expect(response.headers['cache-control']).toBe('private, no-cache');
      expect(varyFields(response.headers.vary).sort()).toEqual([
        'accept-encoding',
        'authorization',
      ]);
    }
  });

  it('answers 304 without a body, with the Vary of the answer it stands for', async () => {
    const response = await menu({
      'accept-encoding': BROWSER,
      'if-none-match': String(plain.headers.etag),
    });
    expect(response.statusCode).toBe(304);
    expect(response.rawPayload.length).toBe(0);
    expect(response.headers['content-length'] ?? '0').toBe('0');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.etag).toBe(plain.headers.etag);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(varyFields(response.headers.vary).sort()).toEqual(['accept-encoding', 'authorization']);
  });

  it('leaves small answers as they are', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/methods',
      headers: { 'accept-encoding': BROWSER },
    });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(varyFields(response.headers.vary)).not.toContain('accept-encoding');
    expect(Array.isArray(response.json())).toBe(true);
  });

  it('sends error answers whole and readable', async () => {
    const calls = [
      { url: '/api/consumer/menu', headers: {}, status: 401 },
      { url: '/api/consumer/menu', headers: { authorization: 'Bearer nonsense' }, status: 401 },
      { url: '/api/nothing', headers: {}, status: 404 },
      { url: '/api/consumer/peers?limit=-1', headers, status: 400 },
    ];
    for (const call of calls) {
      const response = await app.inject({
        method: 'GET',
        url: call.url,
        headers: { ...call.headers, 'accept-encoding': BROWSER },
      });
      expect(response.statusCode, call.url).toBe(call.status);
      expect(response.headers['content-encoding'], call.url).toBeUndefined();
      const body = response.json<{ statusCode: number; code: string }>();
      expect(body.statusCode, call.url).toBe(call.status);
      expect(body.code, call.url).toEqual(expect.any(String));
    }
  });
});

describe('server-sent events', () => {
  it('are never compressed, whatever their parameters', () => {
    for (const type of [
      'text/event-stream',
      'text/event-stream; charset=utf-8',
      'TEXT/EVENT-STREAM;charset=UTF-8',
    ]) {
      expect(compressibleType(type), type).toBe(false);
    }
    for (const type of ['application/json; charset=utf-8', 'text/html', 'image/svg+xml']) {
      expect(compressibleType(type), type).toBe(true);
    }
    for (const type of ['image/png', 'application/octet-stream', 'text/event-streams']) {
      // The last is not an event stream, but text: compressed like any.
      expect(compressibleType(type), type).toBe(type.startsWith('text/'));
    }
  });

  it('reach the client event by event, uncompressed, while the stream stays open', async () => {
    // A tiny app with the app's compression plugin: an event-stream route and, to show that
    // the plugin is at work, the same stream sent as JSON.
    const tiny = Fastify({ logger: false, forceCloseConnections: true });
    await tiny.register(compressionPlugin);
    const streams: PassThrough[] = [];
    const open = () => {
      const stream = new PassThrough();
      streams.push(stream);
      stream.write(`data: ${'{"hello":"world"}'.repeat(100)}\n\n`);
      return stream;
    };
    tiny.get('/events', (_request, reply) =>
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(open()),
    );
    tiny.get('/json', (_request, reply) =>
      reply.header('content-type', 'application/json').send(open()),
    );
    await tiny.listen({ port: 0, host: '127.0.0.1' });
    const { port } = tiny.server.address() as AddressInfo;
    try {
      const get = (path: string) =>
        new Promise<IncomingMessage>((resolve, reject) => {
          httpRequest({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': BROWSER } })
            .on('response', resolve)
            .on('error', reject)
            .end();
        });
      const withinASecond = <T>(promise: Promise<T>) =>
        Promise.race([promise, sleep(1000).then(() => 'nothing within a second' as const)]);

      const events = await withinASecond(get('/events'));
      if (events === 'nothing within a second') throw new Error('the event stream did not start');
      expect(events.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(events.headers['content-encoding']).toBeUndefined();
      expect(varyFields(events.headers.vary)).not.toContain('accept-encoding');
      // The first event arrives while the stream is still open: nothing holds it back.
      const chunks = events[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      const first = await withinASecond(chunks.next());
      expect(first).not.toBe('nothing within a second');
      expect(String((first as IteratorResult<Buffer>).value)).toMatch(/^data: \{"hello"/);
      streams[0]?.end('data: bye\n\n');
      const rest: Buffer[] = [];
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        rest.push(next.value);
      }
      expect(Buffer.concat(rest).toString()).toBe('data: bye\n\n');

      // The same stream as JSON: the compressor keeps what it is given until it has enough
      // (here, until the stream ends), so not even the headers come. This is what an event
      // stream must never go through.
      const json = get('/json');
      expect(await withinASecond(json)).toBe('nothing within a second');
      streams[1]?.end();
      const compressed = await json;
      expect(compressed.headers['content-encoding']).toBe('br');
      const body: Buffer[] = [];
      for await (const chunk of compressed) body.push(chunk as Buffer);
      expect(brotliDecompressSync(Buffer.concat(body)).toString()).toMatch(/^data: /);
    } finally {
      for (const stream of streams) stream.destroy();
      await tiny.close();
    }
  });
});
