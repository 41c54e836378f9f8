import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Ajv from 'ajv';
import fastJsonStringify from 'fast-json-stringify';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { authPlugin } from './plugins/auth.ts';
import { acceptJsonBodiesOnly } from './plugins/body-parsers.ts';
import { errorsPlugin, formatSchemaErrors } from './plugins/errors.ts';
import { clientErrorHandler, frameworkErrors } from './plugins/framework-errors.ts';
import { compressionPlugin } from './plugins/compression.ts';
import { checkRequestText } from './lib/request-text.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { staticWebPlugin } from './plugins/static-web.ts';
import { healthPlugin } from './plugins/health.ts';
import { opensearchPlugin } from './modules/opensearch/opensearch.routes.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { RequestLogController, requestIdFor, requestIdPlugin } from './plugins/request-log.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { adminRoutes } from './modules/admin.routes.ts';
import { consumerRoutes } from './modules/consumer.routes.ts';
import { liveHooks } from './modules/live/live.plugin.ts';
import { invitationsRoutes } from './modules/invitations/invitations.routes.ts';
import { setupRoutes } from './modules/setup/setup.routes.ts';
import { demoIdpPlugin } from './modules/demo-idp/demo-idp.plugin.ts';
import { iconsRoutes } from './modules/icons/icons.routes.ts';
import { scimRoutes } from './modules/scim/scim.routes.ts';
import { SCIM_BASE_PATH } from '@signpost/contract';
import type { Fetcher } from './outbound/types.ts';
import type { Mailer } from './jobs/mailer.ts';
import { composeServer, type Repositories, type Services } from './root.ts';
import { serializeError, type SerializedError } from './log-errors.ts';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Run the periodic jobs in this process (the server does; tests only when they ask). */
  periodicJobs?: boolean;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: { write(line: string): void };
  /** Replaces the guarded fetcher of icons and link checks (tests: one for local servers). */
  outboundFetcher?: Fetcher;
  /** Replaces the SMTP mailer (tests of failures). */
  mailer?: Mailer;
  /** Replaces the repositories (tests: recording ones, decision 0074). */
  repositories?: Repositories;
}

export type App = FastifyInstance;

/**
 * Validators and serializers are compiled once per schema and kept for the process: the
 * routes that answer the same schema (ErrorResponse, NoContent, …) share one, and a process
 * that builds several apps — the tests build one per file — compiles each schema once. Schemas
 * are the contract's objects, never changed after they are made.
 */
const serializers = new WeakMap<object, (data: unknown) => string>();
let validators: { body: Ajv; strings: Ajv } | null = null;

function makeAjv(coerceTypes: boolean) {
  const ajv = new Ajv({
    // Unknown properties are rejected, never silently dropped.
    removeAdditional: false,
    useDefaults: true,
    coerceTypes,
    allErrors: false,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Fastify's form of TRUST_PROXY. A hop count becomes "believe the nearest n hops": Fastify
 * itself trusts nothing for a bare number, so the proxy's client would never be seen.
 */
function trustProxyOption(trust: Config['trustProxy']) {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

/** Builds the whole application; it never listens (main.ts does, tests inject). */
export async function buildApp({
  config,
  database,
  periodicJobs,
  logStream,
  outboundFetcher,
  mailer,
  repositories,
}: AppOptions): Promise<App> {
  const { timeouts } = config;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization'],
      // Failed statements are logged without their values (decision 0050).
      serializers: { err: (error: Error) => serializeError(error) as SerializedError },
      ...(logStream ? { stream: logStream } : {}),
    },
    // Time limits of connections (decision 0050): a client that sends its request slowly or
    // not at all gets 408 and is disconnected, and never holds up a shutdown for long.
    requestTimeout: timeouts.requestSeconds * 1000,
    keepAliveTimeout: timeouts.keepAliveSeconds * 1000,
    // A connection on which nothing moves in either direction for two minutes is cut.
    connectionTimeout: 120_000,
    http: {
      headersTimeout: timeouts.headersSeconds * 1000,
      // How often Node checks the two limits above (its default is every 30 s).
      connectionsCheckingInterval: 1000,
    },
    // Idle keep-alive connections are closed at once when shutdown starts; a request that
    // arrives on a busy one meanwhile is still answered, with `Connection: close`.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    trustProxy: trustProxyOption(config.trustProxy),
    // One line per request, written when it is answered, with its id (decision 0064).
    logController: new RequestLogController(),
    requestIdHeader: false,
    genReqId: requestIdFor(config.trustProxy),
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    schemaErrorFormatter: formatSchemaErrors,
    // Errors answered before any route (bad addresses, malformed HTTP): the one error shape.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON in UTF-8 is the one body the app reads (decision 0049); before any route, so that
  // every scope starts from these parsers.
  acceptJsonBodiesOnly(app);

  // Bodies are checked exactly as typed; only strings of the address are coerced.
  const { body: bodyAjv, strings: stringAjv } = (validators ??= {
    body: makeAjv(false),
    strings: makeAjv(true),
  });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : stringAjv).compile(schema),
  );

  app.setSerializerCompiler(({ schema }) => {
    const key = schema as object;
    let compiled = serializers.get(key);
    if (!compiled) {
      compiled = fastJsonStringify(key) as (data: unknown) => string;
      serializers.set(key, compiled);
    }
    return compiled;
  });

  // A 304 has no body; without this the serialized `null` would leave Content-Length: 4
  // on an empty answer and a client that honours it would wait forever.
  app.addHook('onSend', async (_request, reply, payload) =>
    reply.statusCode === 304 ? null : payload,
  );

  // Once shutdown has begun, every answer ends its connection, so that a connection busy at
  // SIGTERM does not stay open as an idle keep-alive one afterwards.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('Connection', 'close');
    return payload;
  });
  // No text of a request may hold a control character (decision 0049): checked here, on every
  // route, for every string of the path, the query string and the body, before the schema.
  app.addHook('preValidation', checkRequestText);

  app.decorate('config', config);
  app.decorate('database', database);
  // Every repository and service, built once (decision 0070).
  const root = composeServer({
    config,
    database,
    log: app.log,
    ...(mailer ? { mailer } : {}),
    ...(outboundFetcher ? { fetcher: outboundFetcher } : {}),
    periodicJobs: periodicJobs ?? false,
    ...(repositories ? { repositories } : {}),
  });
  const { services } = root;
  app.decorate('services', services);
  // Background work starts with the app; rounds and streams stop taking work as it starts
  // closing; what runs is waited for on close.
  app.addHook('onReady', () => root.start());
  app.addHook('preClose', async () => root.beforeClose());
  app.addHook('onClose', () => root.stop());

  await app.register(requestIdPlugin);
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  // /healthz and /readyz, outside /api (decision 0064).
  await app.register(healthPlugin);
  await app.register(opensearchPlugin);
  // The web app's files come compressed from the build, so they are declared before the
  // compression, which hooks every route declared after it: the API's (decision 0059).
  if (config.webDir) await app.register(staticWebPlugin, { root: config.webDir });
  await app.register(compressionPlugin);
  await app.register(openapiPlugin);
  await app.register(authPlugin, { auth: services.auth });
  // Live updates of the menu (decision 0062): a write that may have ended sessions has the
  // streams of this instance check theirs at once.
  await app.register(liveHooks, { live: services.live });
  // Prometheus metrics (decision 0064): after the plugins whose state they read.
  await app.register(metricsPlugin, { live: services.live, jobs: services.jobs });
  await app.register(authRoutes, { prefix: '/api/auth', ...services });
  // A demo single sign-on provider, when the demo runs without a configured one.
  if (config.demoData && config.oidcProviders.length === 0) {
    await app.register(demoIdpPlugin, {
      sso: services.sso,
      auth: services.auth,
      demoIdp: services.demoIdp,
    });
  }
  await app.register(consumerRoutes, { prefix: '/api/consumer', ...services });
  await app.register(adminRoutes, { prefix: '/api/admin', ...services });
  await app.register(setupRoutes, { prefix: '/api/setup', setup: services.setup });
  await app.register(invitationsRoutes, {
    prefix: '/api/invitations',
    invitations: services.invitations,
  });
  // SCIM 2.0 provisioning for the organization's identity system (decision 0084).
  await app.register(scimRoutes, { prefix: SCIM_BASE_PATH, scim: services.scim });
  // Links' icons, kept and served by the server itself (decision 0068).
  await app.register(iconsRoutes, { prefix: '/api/icons', icons: services.icons });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    /** The services of the composition root, for tests and tools that hold the app. */
    services: Services;
  }
}
