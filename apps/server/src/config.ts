import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { parseOidcProviders, type OidcProviderConfig } from './lib/oidc-providers.ts';

/** argon2id's cost for passwords: OWASP's recommended parameters (19 MiB, 2 passes). */
export const OWASP_ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Everything the server reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; null means the embedded database in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  /** Fill an empty embedded database with the demo organization. */
  demoData: boolean;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  logLevel: string;
  /**
   * Which reverse proxies to believe about the client (`X-Forwarded-For`, `-Proto`, `-Host`):
   * none, the number of hops in front of the server, or the proxies' addresses and ranges.
   */
  trustProxy: TrustProxy;
  /** Where the built web app lives; null serves the API only. */
  webDir: string | null;
  login: LoginThrottleConfig;
  /** Rounds of argon2id work, OWASP parameters by default; lowered only in tests. */
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  /** The origin people reach Signpost at (no trailing slash); single sign-on returns there. */
  publicUrl: string;
  /** OpenID Connect providers for single sign-on. */
  oidcProviders: OidcProviderConfig[];
  /** Who may read the API description at /api/docs (decision 0051). */
  apiDocs: ApiDocsAccess;
  /** Outgoing mail (invitations); null sends none and shows links to copy instead. */
  mail: MailConfig | null;
  /** Time limits of HTTP connections and of shutdown (decision 0050). */
  timeouts: TimeoutsConfig;
  /**
   * Megabytes of serialized team and organization spaces kept for reuse (decision 0057);
   * 0 turns the cache off.
   */
  menuCacheMb: number;
  /** Live updates of the menu: limits of open streams (decision 0062). */
  live: { maxStreams: number; maxStreamsPerSession: number; maxStreamsPerPerson: number };
  /** Prometheus metrics (decision 0064); null serves none. */
  metrics: MetricsConfig | null;
  /** What the server fetches from the addresses people saved (decisions 0067, 0068). */
  outbound: OutboundConfig;
}

export interface OutboundConfig {
  /**
   * False: the server never contacts the sites links point to (a network where it must not),
   * so links show their letter badges.
   */
  enabled: boolean;
  /** How often a link's icon is looked for again, in hours. */
  iconRefreshHours: number;
  /** How often every link is checked, in hours (decision 0069). */
  linkCheckHours: number;
  /** The least time between two requests to one host, in ms: no site is hammered. */
  perHostIntervalMs: number;
}

/**
 * Where /metrics is served: on a port of its own (bound to HOST), or on the main port behind
 * a bearer token; with both, on its own port behind the token. Never without one of them.
 */
export interface MetricsConfig {
  port: number | null;
  token: string | null;
}

export interface TimeoutsConfig {
  /** Longest time to receive a whole request, headers and body; then 408. */
  requestSeconds: number;
  /** Longest time to receive a request's headers; then 408. */
  headersSeconds: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveSeconds: number;
  /** Longest time from SIGTERM to exit; what is still open then is cut. */
  shutdownSeconds: number;
  /**
   * After SIGTERM, how long /readyz answers 503 while requests are still served, so that a
   * load balancer stops sending before the server stops accepting (decision 0064).
   */
  drainSeconds: number;
}

export interface MailConfig {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465 (TLS). */
  smtpUrl: string;
  /** The sender, e.g. `Signpost <signpost@example.com>`. */
  from: string;
}

export interface LoginThrottleConfig {
  windowSeconds: number;
  /** Failures allowed for one e-mail from one address per window. */
  maxPerAccountAndAddress: number;
  /** Failures allowed from one address per window, whatever the e-mail. */
  maxPerAddress: number;
  /** Failures allowed for one e-mail from anywhere per window; its block is short. */
  maxPerAccount: number;
  /** How long an account-wide block lasts, so that nobody can lock a real person out for long. */
  accountBlockSeconds: number;
}

export class ConfigError extends Error {}

export const API_DOCS_ACCESS = ['signed-in', 'public', 'off'] as const;
export type ApiDocsAccess = (typeof API_DOCS_ACCESS)[number];

function apiDocs(raw: string | undefined): ApiDocsAccess {
  const value = raw?.trim().toLowerCase() || 'signed-in';
  if (!(API_DOCS_ACCESS as readonly string[]).includes(value)) {
    throw new ConfigError(`API_DOCS must be signed-in, public or off; got "${raw}"`);
  }
  return value as ApiDocsAccess;
}

/** No proxy, a number of proxy hops, or proxy addresses and CIDR ranges (Fastify's forms). */
export type TrustProxy = false | number | string[];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}"`);
  }
  return value;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false; got "${raw}"`);
}

const TRUST_PROXY_HELP =
  'the number of proxies in front of the server (e.g. TRUST_PROXY=1) or their addresses ' +
  'and ranges (e.g. TRUST_PROXY=10.0.0.5,192.168.0.0/16)';
/** Names proxy-addr knows for the reserved ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function proxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`: off, a number of hops, or a list of proxy addresses and ranges. `true`
 * (trust every hop) is refused: any client could then write its own address.
 */
function trustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || ['false', 'no', 'off', '0'].includes(value.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(value.toLowerCase())) {
    throw new ConfigError(
      `TRUST_PROXY=${value} would believe any X-Forwarded-For a client writes; set ${TRUST_PROXY_HELP}`,
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new ConfigError(`TRUST_PROXY must be 0 to 10 hops; got "${raw}"`);
    return hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const everyone = entries.find((entry) => /\/0+$/.test(entry));
  if (everyone !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY=${everyone} would believe any X-Forwarded-For a client writes; set ${TRUST_PROXY_HELP}`,
    );
  }
  const wrong = entries.find((entry) => !proxyAddress(entry));
  if (wrong !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be ${TRUST_PROXY_HELP}; "${wrong}" is neither an address nor a range`,
    );
  }
  return entries;
}

function databaseUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL is not a valid URL; expected postgres://user@host:5432/db');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      `DATABASE_URL must start with postgres:// or postgresql://; got "${url.protocol}"`,
    );
  }
  return raw;
}

function publicUrl(raw: string | undefined, port: number): string {
  if (raw === undefined || raw === '') return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL is not a URL; expected e.g. https://links.example.com`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    url.username
  ) {
    throw new ConfigError(
      `PUBLIC_URL must be an http:// or https:// origin without a path; got "${raw}"`,
    );
  }
  return url.origin;
}

function oidcProviders(env: NodeJS.ProcessEnv): OidcProviderConfig[] {
  const inline = env.OIDC_PROVIDERS;
  const file = env.OIDC_PROVIDERS_FILE;
  if (inline && file) {
    throw new ConfigError('Set OIDC_PROVIDERS or OIDC_PROVIDERS_FILE, not both');
  }
  let json = inline;
  if (file) {
    try {
      json = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `OIDC_PROVIDERS_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'} ${file}`,
        { cause: error },
      );
    }
  }
  if (json === undefined || json.trim() === '') return [];
  try {
    return parseOidcProviders(json, inline ? 'OIDC_PROVIDERS' : 'OIDC_PROVIDERS_FILE');
  } catch (error) {
    throw new ConfigError((error as Error).message, { cause: error });
  }
}

function mail(env: NodeJS.ProcessEnv, publicOrigin: string): MailConfig | null {
  const raw = env.SMTP_URL?.trim();
  if (!raw) {
    if (env.MAIL_FROM) throw new ConfigError('MAIL_FROM is set but SMTP_URL is not; set both');
    return null;
  }
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // Said below, with what was typed.
  }
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    throw new ConfigError(smtpUrlRefusal(raw));
  }
  const from = env.MAIL_FROM?.trim() || `Signpost <signpost@${new URL(publicOrigin).hostname}>`;
  if (/[\r\n]/.test(from) || !/^[^@\s<>]+@[^@\s<>]+$|<[^@\s<>]+@[^@\s<>]+>$/.test(from)) {
    throw new ConfigError(
      `MAIL_FROM must be an address such as "Signpost <signpost@example.com>"; got ${JSON.stringify(from)}`,
    );
  }
  return { smtpUrl: raw, from };
}

/**
 * Why SMTP_URL is refused, quoting what was typed (a password in it hidden) and what to write
 * instead. A scheme is required: `mail.example.com:587` is refused rather than taken as
 * smtp://, since no other address of the configuration goes without one, and the choice
 * between smtp:// (STARTTLS) and smtps:// (TLS from the first byte) is the operator's.
 */
export function smtpUrlRefusal(raw: string): string {
  const shown = raw.replace(/^((?:[a-z][a-z0-9+.-]*:\/\/)?)[^@/\s]*@/i, '$1***@');
  // The host (and port) the value seems to name: after any scheme and user, before any path.
  const host = raw
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^[^@/\s]*@/, '')
    .replace(/\/.*$/, '');
  const named = /^[a-z0-9.-]+\.[a-z0-9-]+(?::\d{1,5})?$|^localhost(?::\d{1,5})?$/i.test(host);
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw);
  const instead = named
    ? `write smtp://${host} (STARTTLS when the server offers it) or smtps://${host.replace(/:\d+$/, '')}:465 (TLS)`
    : 'write smtp://user:password@host:587 (STARTTLS when the server offers it) or smtps://user:password@host:465 (TLS)';
  const what = hasScheme ? 'is not an smtp:// or smtps:// address' : 'is not an address';
  return `SMTP_URL "${shown}" ${what}: ${instead}`;
}

function timeouts(env: NodeJS.ProcessEnv): TimeoutsConfig {
  const requestSeconds = integer(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1, 3600);
  const headersSeconds = integer(env, 'HEADERS_TIMEOUT_SECONDS', 10, 1, 3600);
  if (headersSeconds > requestSeconds) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_SECONDS (${headersSeconds}) must not exceed REQUEST_TIMEOUT_SECONDS (${requestSeconds})`,
    );
  }
  return {
    requestSeconds,
    headersSeconds,
    keepAliveSeconds: integer(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', 72, 1, 3600),
    shutdownSeconds: integer(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10, 1, 3600),
    drainSeconds: integer(env, 'SHUTDOWN_DRAIN_SECONDS', 0, 0, 3600),
  };
}

function metrics(env: NodeJS.ProcessEnv, port: number): MetricsConfig | null {
  const rawPort = env.METRICS_PORT?.trim() ?? '';
  const metricsPort = rawPort === '' ? null : integer(env, 'METRICS_PORT', 0, 1, 65535);
  if (metricsPort !== null && metricsPort === port) {
    throw new ConfigError(
      `METRICS_PORT must differ from PORT (${port}): metrics on the main port need METRICS_TOKEN instead`,
    );
  }
  const token = env.METRICS_TOKEN ?? '';
  if (token !== '' && (token.length < 24 || /\s/.test(token))) {
    throw new ConfigError(
      'METRICS_TOKEN must be at least 24 characters without spaces (for example: openssl rand -hex 24)',
    );
  }
  if (metricsPort === null && token === '') return null;
  return { port: metricsPort, token: token === '' ? null : token };
}

/** Reads the configuration; throws ConfigError with one clear sentence on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = []): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${logLevel}"`);
  }
  const webDir = env.WEB_DIR === undefined ? null : env.WEB_DIR || null;
  const port = integer(env, 'PORT', 3000, 0, 65535);
  return {
    port,
    host: env.HOST || 'localhost',
    databaseUrl: databaseUrl(env.DATABASE_URL),
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    demoData: argv.includes('--no-demo') ? false : boolean(env, 'DEMO_DATA', true),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 7 * 24 * 60, 1, 365 * 24 * 60),
    sessionAbsoluteHours: integer(env, 'SESSION_ABSOLUTE_HOURS', 30 * 24, 1, 365 * 24),
    logLevel,
    trustProxy: trustProxy(env.TRUST_PROXY),
    webDir: webDir === null ? null : path.resolve(webDir),
    login: {
      windowSeconds: integer(env, 'LOGIN_WINDOW_SECONDS', 15 * 60, 1, 24 * 3600),
      maxPerAccountAndAddress: integer(env, 'LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS', 5, 1, 10_000),
      maxPerAddress: integer(env, 'LOGIN_MAX_PER_ADDRESS', 50, 1, 100_000),
      maxPerAccount: integer(env, 'LOGIN_MAX_PER_ACCOUNT', 20, 1, 100_000),
      accountBlockSeconds: integer(env, 'LOGIN_ACCOUNT_BLOCK_SECONDS', 60, 1, 3600),
    },
    argon2: OWASP_ARGON2,
    publicUrl: publicUrl(env.PUBLIC_URL, port),
    oidcProviders: oidcProviders(env),
    apiDocs: apiDocs(env.API_DOCS),
    mail: mail(env, publicUrl(env.PUBLIC_URL, port)),
    timeouts: timeouts(env),
    menuCacheMb: integer(env, 'MENU_CACHE_MB', 64, 0, 4096),
    live: {
      maxStreams: integer(env, 'LIVE_MAX_STREAMS', 10_000, 0, 1_000_000),
      maxStreamsPerSession: integer(env, 'LIVE_MAX_STREAMS_PER_SESSION', 8, 1, 100),
      // Across every instance (decision 0082), as the one per session is.
      maxStreamsPerPerson: integer(env, 'LIVE_MAX_STREAMS_PER_PERSON', 32, 1, 1000),
    },
    metrics: metrics(env, port),
    outbound: {
      enabled: boolean(env, 'OUTBOUND_REQUESTS', true),
      iconRefreshHours: integer(env, 'ICON_REFRESH_HOURS', 7 * 24, 1, 365 * 24),
      linkCheckHours: integer(env, 'LINK_CHECK_HOURS', 24, 1, 30 * 24),
      perHostIntervalMs: integer(env, 'OUTBOUND_HOST_INTERVAL_MS', 1000, 0, 600_000),
    },
  };
}
