import { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { DatabaseHandle } from '../../db/client.ts';

/** The channel the menu's scopes are announced on at commit (migration 0013). */
export const MENU_CHANNEL = 'signpost_menu';

/** What the hub hears from the database. */
export interface ListenerEvents {
  /** One announcement: space-separated scope keys. */
  notification(payload: string): void;
  /**
   * The connection came back after it was lost (or after a start without it): what was
   * announced meanwhile is gone, so every stream must refetch.
   */
  resync(): void;
}

export interface Listener {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Whether announcements are being heard now. */
  readonly up: boolean;
}

export interface ListenerOptions {
  /** Back-off of reconnection: first and longest wait. */
  retryMs?: { first: number; max: number };
  /** How often the connection is checked with a statement (a half-open TCP is seen so). */
  pingMs?: number;
}

/**
 * The LISTEN of one server instance: on PostgreSQL one connection of its own, outside the
 * pool (a pooled connection would be handed to requests, and a LISTEN belongs to its
 * session); on the embedded database PGlite's in-process `listen`.
 */
export function createListener(
  database: DatabaseHandle,
  events: ListenerEvents,
  log: FastifyBaseLogger,
  options: ListenerOptions = {},
): Listener {
  // drizzle keeps the driver's client as `$client`: the PGlite instance, or the pool.
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === 'pglite' && client instanceof PGlite) return pgliteListener(client, events);
  if (database.kind === 'postgres' && client instanceof pg.Pool) {
    return postgresListener(client.options, events, log, options);
  }
  throw new Error('live updates: the database handle has no driver client to listen on');
}

function pgliteListener(client: PGlite, events: ListenerEvents): Listener {
  let unlisten: (() => Promise<void>) | null = null;
  return {
    get up() {
      return unlisten !== null;
    },
    async start() {
      unlisten = await client.listen(MENU_CHANNEL, (payload) => events.notification(payload));
    },
    async stop() {
      const stop = unlisten;
      unlisten = null;
      // The database may be closed already (tests close it after the app); nothing to undo.
      if (stop && !client.closed) await stop().catch(() => {});
    },
  };
}

function postgresListener(
  connection: pg.PoolOptions,
  events: ListenerEvents,
  log: FastifyBaseLogger,
  { retryMs = { first: 500, max: 15_000 }, pingMs = 30_000 }: ListenerOptions,
): Listener {
  let current: pg.Client | null = null;
  let up = false;
  let stopped = false;
  // Down until the first connection: streams opened meanwhile refetch once it is up.
  let missed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | null = null;
  let ping: NodeJS.Timeout | null = null;

  const config: pg.ClientConfig = {
    connectionString: connection.connectionString,
    host: connection.host,
    port: connection.port,
    user: connection.user,
    password: connection.password,
    database: connection.database,
    ssl: connection.ssl,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    application_name: 'signpost-live',
  };

  const down = (client: pg.Client, error: unknown) => {
    if (client !== current) return;
    current = null;
    // Said once per outage: when the connection is lost, or when the first attempt fails.
    if (up || attempt === 0) {
      log.warn(
        { err: error instanceof Error ? { message: error.message } : undefined },
        'live updates: no LISTEN connection to the database; reconnecting',
      );
    }
    up = false;
    missed = true;
    client.removeAllListeners('notification');
    client.end().catch(() => {});
    schedule();
  };

  const schedule = () => {
    if (stopped || retry) return;
    // Exponential, with jitter, so that instances do not all come back at the same moment.
    const base = Math.min(retryMs.max, retryMs.first * 2 ** attempt);
    attempt += 1;
    retry = setTimeout(
      () => {
        retry = null;
        void connect();
      },
      base / 2 + (Math.random() * base) / 2,
    );
    retry.unref();
  };

  const connect = async () => {
    if (stopped) return;
    const client = new pg.Client(config);
    current = client;
    // A connection's error or end, at any time, is handled here and never takes the process
    // down (decision 0050).
    client.on('error', (error) => down(client, error));
    client.on('end', () => down(client, new Error('connection ended')));
    client.on('notification', (message) => {
      if (message.channel === MENU_CHANNEL && message.payload) {
        events.notification(message.payload);
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${MENU_CHANNEL}`);
    } catch (error) {
      down(client, error);
      return;
    }
    if (client !== current) return;
    up = true;
    attempt = 0;
    if (missed) {
      missed = false;
      log.info('live updates: listening again; every open stream refetches');
      events.resync();
    }
  };

  return {
    get up() {
      return up;
    },
    async start() {
      stopped = false;
      await connect();
      ping = setInterval(() => {
        const client = current;
        if (!client || !up) return;
        client.query('SELECT 1').catch((error: unknown) => down(client, error));
      }, pingMs);
      ping.unref();
    },
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      if (ping) clearInterval(ping);
      retry = null;
      ping = null;
      const client = current;
      current = null;
      up = false;
      if (client) {
        client.removeAllListeners('notification');
        await client.end().catch(() => {});
      }
    },
  };
}
