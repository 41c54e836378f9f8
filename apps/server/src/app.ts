import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin, formatSchemaErrors } from './plugins/errors.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { staticWebPlugin } from './plugins/static-web.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { adminRoutes } from './modules/admin.routes.ts';
import { startPeopleChangesRetention } from './modules/people/people-changes-retention.ts';
import { startAuditRetention } from './modules/audit/audit-retention.ts';
import { consumerRoutes } from './modules/consumer.routes.ts';
import { invitationsRoutes } from './modules/invitations/invitations.routes.ts';
import { setupRoutes } from './modules/setup/setup.routes.ts';
import { demoIdpPlugin } from './modules/demo-idp/demo-idp.plugin.ts';
import { createJobs, type Jobs } from './modules/jobs/jobs.service.ts';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Run the periodic jobs in this process (the server does; tests only when they ask). */
  periodicJobs?: boolean;
}

export type App = FastifyInstance;

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

/** Builds the whole application; it never listens (main.ts does, tests inject). */
export async function buildApp({ config, database, periodicJobs }: AppOptions): Promise<App> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization'] },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    schemaErrorFormatter: formatSchemaErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Bodies are checked exactly as typed; only strings of the address are coerced.
  const bodyAjv = makeAjv(false);
  const stringAjv = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : stringAjv).compile(schema),
  );

  // A 304 has no body; without this the serialized `null` would leave Content-Length: 4
  // on an empty answer and a client that honours it would wait forever.
  app.addHook('onSend', async (_request, reply, payload) =>
    reply.statusCode === 304 ? null : payload,
  );

  app.decorate('config', config);
  app.decorate('database', database);
  // Background jobs (mail) start with the app and stop, finishing what runs, on close.
  const jobs = createJobs({ config, database, log: app.log });
  app.decorate('jobs', jobs);
  app.addHook('onReady', jobs.start);
  app.addHook('onClose', jobs.stop);

  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(openapiPlugin);
  await app.register(authPlugin);
  await app.register(authRoutes, { prefix: '/api/auth' });
  // A demo single sign-on provider, when the demo runs without a configured one.
  if (config.demoData && config.oidcProviders.length === 0) await app.register(demoIdpPlugin);
  await app.register(consumerRoutes, { prefix: '/api/consumer' });
  await app.register(adminRoutes, { prefix: '/api/admin' });
  await app.register(setupRoutes, { prefix: '/api/setup' });
  await app.register(invitationsRoutes, { prefix: '/api/invitations' });
  if (config.webDir) await app.register(staticWebPlugin, { root: config.webDir });
  if (periodicJobs) {
    startAuditRetention(app);
    startPeopleChangesRetention(app);
  }
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    jobs: Jobs;
  }
}
