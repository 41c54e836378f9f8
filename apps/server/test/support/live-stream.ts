// A reader of the menu's event stream over real HTTP, for the live tests: `app.inject` waits
// for an answer's end, and a stream never ends by itself.
import http from 'node:http';
import type { App } from '../../src/app.ts';

export interface OpenedStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of a refusal (not a stream). */
  body: string;
  /** Event names received so far and not yet taken by `next`. */
  readonly queued: string[];
  /** Comment lines received (keep-alive). */
  readonly comments: number;
  /** Takes the next event name, waiting up to `ms` for it; null when none came. */
  next(ms?: number): Promise<string | null>;
  /** Resolves when the server ended the response. */
  readonly ended: Promise<void>;
  close(): void;
}

/** The address of an app, listening on a free loopback port (once). */
export async function addressOf(app: App): Promise<string> {
  const address = app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  await app.listen({ port: 0, host: '127.0.0.1' });
  return addressOf(app);
}

/** Opens `GET /api/consumer/menu/events` with these headers. */
export async function openStream(
  app: App,
  headers: Record<string, string>,
  path = '/api/consumer/menu/events',
): Promise<OpenedStream> {
  const url = new URL(path, await addressOf(app));
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      const queued: string[] = [];
      const waiters: (() => void)[] = [];
      let comments = 0;
      let text = '';
      let body = '';
      let endedResolve: () => void = () => {};
      const ended = new Promise<void>((done) => (endedResolve = done));
      const isStream = String(response.headers['content-type']).startsWith('text/event-stream');
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (!isStream) {
          body += chunk;
          return;
        }
        text += chunk;
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const name = /^event: ?(.*)$/m.exec(block)?.[1];
          if (name !== undefined) queued.push(name);
          else if (block.startsWith(':')) comments += 1;
        }
        for (const wake of waiters.splice(0)) wake();
      });
      const finish = () => {
        endedResolve();
        for (const wake of waiters.splice(0)) wake();
      };
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', finish);
      let done = false;
      response.on('close', () => (done = true));
      const stream: OpenedStream = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        get body() {
          return body;
        },
        queued,
        get comments() {
          return comments;
        },
        async next(ms = 3000) {
          const deadline = Date.now() + ms;
          while (queued.length === 0 && !done && Date.now() < deadline) {
            await new Promise<void>((wake) => {
              const timer = setTimeout(wake, deadline - Date.now());
              waiters.push(() => {
                clearTimeout(timer);
                wake();
              });
            });
          }
          return queued.shift() ?? null;
        },
        ended,
        close: () => request.destroy(),
      };
      if (isStream) resolve(stream);
      else response.on('end', () => resolve(stream));
    });
    request.on('error', reject);
  });
}
