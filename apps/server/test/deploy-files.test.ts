// The container image and the deployment files (Dockerfile, compose.yaml, deploy/kubernetes/)
// are not built or applied by the tests. These checks hold them to what they promise
// (docs/deployment.md) and to the server they run: its settings, its entry points, its
// probes' paths, its shutdown times.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseArguments } from '../src/admin-arguments.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

// ---- the settings the server reads -----------------------------------------------------

/** Every environment variable config.ts names: `env.NAME`, `env['NAME']` or `'NAME'`. */
function settingsReadByServer(): Set<string> {
  const source = read('apps/server/src/config.ts');
  const names = new Set<string>(['NODE_ENV']);
  for (const pattern of [
    /\benv\.([A-Z][A-Z0-9_]*)\b/g,
    /\benv\[['"`]([A-Z][A-Z0-9_]*)['"`]\]/g,
    /['"`]([A-Z][A-Z0-9_]*)['"`]/g,
  ]) {
    for (const match of source.matchAll(pattern)) names.add(match[1]!);
  }
  return names;
}
const SETTINGS = settingsReadByServer();
const KNOWN = SETTINGS;

function unknownSettings(names: Iterable<string>): string[] {
  return [...new Set(names)].filter((name) => !KNOWN.has(name)).sort();
}

function adminCommandKnown(command: string): boolean {
  try {
    return parseArguments([command]).help === false;
  } catch {
    return false;
  }
}

/** `20s`, `1m30s`, `1h` (compose's durations) in seconds. */
function seconds(duration: string | number): number {
  if (typeof duration === 'number') return duration;
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|ns)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== duration) {
    throw new Error(`not a duration: ${duration}`);
  }
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 };
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]!]!, 0);
}

// ---- the Dockerfile --------------------------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string | null;
  base: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages and their instructions, continuation lines joined. */
function dockerfileStages(text: string): Stage[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue; // comments, also between continuation lines
    const joined = pending + line.trim();
    if (joined.endsWith('\\')) {
      pending = `${joined.slice(0, -1).trim()} `;
      continue;
    }
    pending = '';
    if (joined === '') continue;
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(joined) ?? [];
    instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [base = '', as, name] = instruction.args.replace(/--\S+\s+/g, '').split(/\s+/);
      stages.push({
        base,
        name: as?.toUpperCase() === 'AS' ? (name ?? null) : null,
        instructions: [],
      });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** `--flag=value` options at the start of an instruction's arguments, and the rest. */
function options(args: string): { flags: Record<string, string>; rest: string } {
  const flags: Record<string, string> = {};
  let rest = args;
  for (let m = /^--([a-z-]+)=(\S+)\s+/.exec(rest); m; m = /^--([a-z-]+)=(\S+)\s+/.exec(rest)) {
    flags[m[1]!] = m[2]!;
    rest = rest.slice(m[0].length);
  }
  return { flags, rest };
}

/** ENV's `KEY=value` pairs (values optionally quoted), in order. */
function envPairs(args: string): [string, string][] {
  return [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|'([^']*)'|(\S*))/g)].map((m) => [
    m[1]!,
    m[3] ?? m[4] ?? m[5] ?? '',
  ]);
}

function stageEnv(stage: Stage): Map<string, string> {
  return new Map(
    stage.instructions.filter((i) => i.keyword === 'ENV').flatMap((i) => envPairs(i.args)),
  );
}

function only(stage: Stage, keyword: string): Instruction {
  const found = stage.instructions.filter((i) => i.keyword === keyword);
  expect(found, `${keyword} once in the stage`).toHaveLength(1);
  return found[0]!;
}

/** An exec-form argument list (`["node", "x.js"]`); null for the shell form. */
function execForm(args: string): string[] | null {
  if (!args.trim().startsWith('[')) return null;
  const list: unknown = JSON.parse(args);
  return Array.isArray(list) && list.every((a) => typeof a === 'string') ? list : null;
}

/** The workspaces' folders, from the root package.json's globs (`apps/*`). */
function workspaceFolders(): string[] {
  const pkg = JSON.parse(read('package.json')) as { workspaces: string[] };
  return pkg.workspaces.flatMap((glob) => {
    const parent = glob.replace(/\/\*$/, '');
    return readdirSync(path.join(root, parent), { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(root, parent, e.name, 'package.json')))
      .map((e) => `${parent}/${e.name}`);
  });
}

const stages = dockerfileStages(read('Dockerfile'));
const runtime = stages.at(-1)!;
const runtimeEnv = stageEnv(runtime);

describe('the Dockerfile', () => {
  it('builds on node:20-bookworm-slim in every stage, a build stage first', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages)
      expect(stage.base).toMatch(/^node:20(\.\d+)*-bookworm-slim(@sha256:[0-9a-f]{64})?$/);
    const build = stages[0]!;
    const runs = build.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm run build\b/.test(r))).toBe(true);
  });

  it('copies --from earlier stages only', () => {
    const copies = stages.flatMap((stage, index) =>
      stage.instructions
        .filter((i) => i.keyword === 'COPY' && options(i.args).flags.from !== undefined)
        .map((i) => ({ from: options(i.args).flags.from!, earlier: stages.slice(0, index) })),
    );
    expect(copies.length).toBeGreaterThan(0);
    for (const { from, earlier } of copies) {
      expect(
        earlier.map((s) => s.name),
        `COPY --from=${from}`,
      ).toContain(from);
    }
  });

  it('copies every workspace package.json, the lock and .npmrc before each npm ci', () => {
    // engine-strict: npm ci refuses a package whose "engines" exclude the image's Node.js.
    expect(read('.npmrc')).toMatch(/^engine-strict=true$/m);
    for (const stage of stages) {
      const installAt = stage.instructions.findIndex(
        (i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args),
      );
      if (installAt < 0) continue;
      const copied = stage.instructions
        .slice(0, installAt)
        .filter((i) => i.keyword === 'COPY')
        .map((i) => options(i.args).rest);
      for (const folder of ['.', ...workspaceFolders()]) {
        const manifest = folder === '.' ? 'package.json' : `${folder}/package.json`;
        expect(
          copied.some((c) => c.split(/\s+/).slice(0, -1).includes(manifest)),
          manifest,
        ).toBe(true);
      }
      expect(copied.some((c) => c.split(/\s+/).includes('package-lock.json'))).toBe(true);
      expect(copied.some((c) => c.split(/\s+/).slice(0, -1).includes('.npmrc'))).toBe(true);
    }
  });

  it('installs without downloading a browser, and only production packages for run time', () => {
    const build = stages[0]!;
    expect(stageEnv(build).get('PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD')).toBe('1');
    // Everything the runtime stage takes from other stages but the built dist folders
    // (that is: node_modules) comes from stages whose every install leaves out development
    // packages and the web app's.
    const sources = runtime.instructions
      .filter((i) => i.keyword === 'COPY' && options(i.args).flags.from !== undefined)
      .map((i) => ({
        from: options(i.args).flags.from!,
        what: options(i.args).rest.split(/\s+/)[0]!,
      }))
      .filter(({ what }) => !what.endsWith('/dist'));
    expect(sources.length).toBeGreaterThan(0);
    for (const { from } of sources) {
      const stage = stages.find((s) => s.name === from)!;
      const installs = stage.instructions.filter(
        (i) => i.keyword === 'RUN' && /\bnpm (ci|install|i)\b/.test(i.args),
      );
      expect(installs.length, `the install in stage ${from}`).toBeGreaterThan(0);
      for (const install of installs) {
        expect(install.args).toMatch(/--omit=dev\b/);
        expect(install.args).toMatch(/--workspace[= ]@signpost\/server\b/);
      }
    }
    const server = JSON.parse(read('apps/server/package.json')) as { name: string };
    expect(server.name).toBe('@signpost/server');
  });

  it('runs the built server and web app, which the build stage makes', () => {
    const cmd = execForm(only(runtime, 'CMD').args);
    expect(cmd, 'CMD in exec form, so that SIGTERM reaches Node').toEqual([
      'node',
      'apps/server/dist/main.js',
    ]);
    expect(runtime.instructions.some((i) => i.keyword === 'ENTRYPOINT')).toBe(false);
    expect(only(runtime, 'WORKDIR').args).toBe('/app');
    const fromBuild = runtime.instructions
      .filter((i) => i.keyword === 'COPY' && options(i.args).flags.from === stages[0]!.name)
      .map((i) => options(i.args).rest.split(/\s+/));
    expect(fromBuild).toContainEqual(['/app/apps/server/dist', 'apps/server/dist']);
    expect(fromBuild).toContainEqual(['/app/apps/web/dist', 'apps/web/dist']);
    // What the build makes: both entry points of the server, beside the web app main.ts
    // serves by default (../../web/dist from apps/server/dist).
    const build = read('apps/server/build.mjs');
    expect(build).toMatch(/entryPoints:\s*\[[^\]]*'src\/main\.ts'/);
    expect(build).toMatch(/entryPoints:\s*\[[^\]]*'src\/admin\.ts'/);
    expect(read('apps/server/src/main.ts')).toContain("path.resolve(here, '../../web/dist')");
  });

  it('runs as a user other than root, with NODE_ENV=production and HOST on every interface', () => {
    const users = runtime.instructions.filter((i) => i.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)!.args).not.toMatch(/^(root|0)(:|$)/);
    expect(users.at(-1)!.args).toMatch(/^(node|1000)(:(node|1000))?$/);
    expect(runtimeEnv.get('NODE_ENV')).toBe('production');
    expect(runtimeEnv.get('HOST')).toBe('0.0.0.0');
    expect(unknownSettings(runtimeEnv.keys())).toEqual([]);
  });

  it('keeps the data folder in a volume the server user owns', () => {
    expect(runtimeEnv.get('DATA_DIR')).toBe('/data');
    const volume = only(runtime, 'VOLUME').args;
    expect(execForm(volume) ?? volume.split(/\s+/)).toContain('/data');
    const chown = runtime.instructions.find(
      (i) =>
        i.keyword === 'RUN' &&
        /\bchown\s+(-R\s+)?(node|1000)(:(node|1000))?\s+\/data\b/.test(i.args),
    );
    expect(chown, 'RUN … chown node:node /data').toBeDefined();
    // What a later step writes into a volume's folder is lost.
    const volumeAt = runtime.instructions.findIndex((i) => i.keyword === 'VOLUME');
    expect(runtime.instructions.indexOf(chown!)).toBeLessThan(volumeAt);
  });

  it('exposes PORT and stops on SIGTERM within Docker’s 10 s', () => {
    const port = runtimeEnv.get('PORT') ?? '3000';
    expect(only(runtime, 'EXPOSE').args.split(/\s+/)).toContain(port);
    expect(only(runtime, 'STOPSIGNAL').args).toBe('SIGTERM');
    const drain = Number(runtimeEnv.get('SHUTDOWN_DRAIN_SECONDS') ?? 0);
    const limit = Number(runtimeEnv.get('SHUTDOWN_TIMEOUT_SECONDS') ?? 10);
    expect(drain + limit).toBeLessThan(10);
  });

  describe('its HEALTHCHECK', () => {
    const healthcheck = () => only(runtime, 'HEALTHCHECK').args;
    const command = () => execForm(healthcheck().replace(/^(--\S+\s+)*CMD\s+/, ''));

    /** Runs the check's command against a server answering `status` at /healthz only. */
    async function check(status: number | null): Promise<number | null> {
      const [program, ...args] = command() ?? [];
      expect(program).toBe('node');
      let server: Server | null = null;
      let port = 1; // nothing listens there
      if (status !== null) {
        server = createServer((request, reply) => {
          reply.statusCode = request.url === '/healthz' ? status : 404;
          reply.end();
        });
        await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
        port = (server.address() as AddressInfo).port;
      }
      try {
        // Asynchronous, so that this process's server can answer the check.
        const child = spawn(process.execPath, args, {
          env: { ...process.env, PORT: String(port) },
          stdio: 'ignore',
        });
        return await new Promise((resolve) => child.on('close', resolve));
      } finally {
        server?.close();
      }
    }

    it('is exec form, with Node itself (the slim image has no curl), and a time limit', () => {
      expect(command()?.[0]).toBe('node');
      expect(healthcheck()).toMatch(/--timeout=\d+s/);
    });

    it('passes on 200 at /healthz of PORT, fails on 503 and when nothing answers', async () => {
      expect(await check(200)).toBe(0);
      expect(await check(503)).toBe(1);
      expect(await check(null)).toBe(1);
    });
  });
});

// ---- compose.yaml ----------------------------------------------------------------------

/** The parts of the YAML files the checks read; anything else may be there too. */
interface ComposeService {
  image?: string;
  build?: string | { context: string };
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition?: string }>;
  volumes?: string[];
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** compose's `${NAME:-default}` and `${NAME}`, as with nothing set in the environment. */
function interpolate(value: string): string {
  return value.replace(/\$\{[A-Z0-9_]+(?::?-([^}]*))?\}/g, (_, fallback: string = '') => fallback);
}

function yamlDocuments(file: string): unknown[] {
  const documents = parseAllDocuments(read(file));
  for (const document of documents) expect(document.errors, file).toEqual([]);
  return documents.map((d) => d.toJS() as unknown).filter((d) => d !== null);
}

/** `KEY: value` lines commented out (examples to uncomment), from the file's text. */
function commentedSettings(file: string): string[] {
  return [...read(file).matchAll(/^\s*#\s*([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
}

describe('compose.yaml', () => {
  const compose = yamlDocuments('compose.yaml')[0] as Compose;
  const portal = compose.services.portal!;
  const postgres = compose.services.postgres!;
  const env = portal.environment ?? {};

  it('builds the portal from the Dockerfile and publishes its port', () => {
    const build = portal.build;
    expect(typeof build === 'string' ? build : build?.context).toBe('.');
    const port = env.PORT ?? runtimeEnv.get('PORT') ?? '3000';
    expect(portal.ports?.some((p) => String(p).endsWith(`:${port}`))).toBe(true);
  });

  it('runs PostgreSQL 16 or newer with a named volume and a pg_isready healthcheck', () => {
    expect(postgres.image).toMatch(/^postgres:(1[6-9]|[2-9]\d)\b/);
    const [volume] = String(postgres.volumes?.[0]).split(':');
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    expect(postgres.healthcheck?.test.join(' ')).toMatch(/\bpg_isready\b/);
  });

  it('starts the portal once PostgreSQL is healthy, on that database', () => {
    expect(portal.depends_on?.postgres?.condition).toBe('service_healthy');
    const url = new URL(interpolate(env.DATABASE_URL ?? ''));
    const pg = postgres.environment ?? {};
    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('postgres');
    expect(url.port).toBe('5432');
    expect(decodeURIComponent(url.username)).toBe(pg.POSTGRES_USER);
    expect(decodeURIComponent(url.password)).toBe(interpolate(pg.POSTGRES_PASSWORD ?? ''));
    expect(url.pathname).toBe(`/${pg.POSTGRES_DB}`);
  });

  it('waits longer to stop than the drain and the shutdown limit together', () => {
    const drain = Number(env.SHUTDOWN_DRAIN_SECONDS ?? 0);
    const limit = Number(
      env.SHUTDOWN_TIMEOUT_SECONDS ?? runtimeEnv.get('SHUTDOWN_TIMEOUT_SECONDS') ?? 10,
    );
    expect(drain).toBeGreaterThan(0);
    expect(seconds(portal.stop_grace_period ?? '10s')).toBeGreaterThan(drain + limit);
    expect(env.PUBLIC_URL).toMatch(/^https?:\/\/[^/]+$/);
  });

  it('sets, and shows commented out, only settings the server reads', () => {
    const commented = commentedSettings('compose.yaml');
    expect(commented).toEqual(expect.arrayContaining(['OIDC_PROVIDERS_FILE', 'METRICS_PORT']));
    expect(unknownSettings([...Object.keys(env), ...commented])).toEqual([]);
  });
});

// ---- deploy/kubernetes -----------------------------------------------------------------

interface Probe {
  httpGet: { path: string; port: number | string };
  periodSeconds?: number;
  failureThreshold?: number;
}
interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[] };
}
interface Container {
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: unknown };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  restartPolicy?: string;
  securityContext?: SecurityContext;
  terminationGracePeriodSeconds?: number;
  volumes?: { name: string; emptyDir?: object; persistentVolumeClaim?: object }[];
}
type Labels = Record<string, string>;
interface Manifest {
  kind: string;
  metadata: { name: string; namespace?: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
interface Deployment extends Manifest {
  spec: {
    replicas: number;
    selector: { matchLabels: Labels };
    template: { metadata: { labels: Labels; annotations?: Labels }; spec: PodSpec };
  };
}
interface Job extends Manifest {
  spec: { template: { spec: PodSpec } };
}
interface Service extends Manifest {
  spec: { selector: Labels; ports: { targetPort: number | string }[] };
}
interface Budget extends Manifest {
  spec: { minAvailable: number; selector: { matchLabels: Labels } };
}
interface Kustomization {
  namespace: string;
  resources: string[];
  images?: { name: string }[];
}

const K8S = 'deploy/kubernetes';

describe('the Kubernetes manifests', () => {
  const kustomization = yamlDocuments(`${K8S}/kustomization.yaml`)[0] as Kustomization;
  const files = readdirSync(path.join(root, K8S)).filter((f) => /\.ya?ml$/.test(f));
  const manifests = files
    .filter((f) => f !== 'kustomization.yaml')
    .flatMap((file) => yamlDocuments(`${K8S}/${file}`) as Manifest[]);
  function find<T extends Manifest>(kind: string): T {
    const found = manifests.filter((m) => m.kind === kind);
    expect(found, kind).toHaveLength(1);
    return found[0] as T;
  }
  const deployment = find<Deployment>('Deployment');
  const job = find<Job>('Job');
  const configMap = find<Manifest>('ConfigMap');
  const secret = find<Manifest>('Secret');
  const service = find<Service>('Service');
  const budget = find<Budget>('PodDisruptionBudget');
  const namespace = find<Manifest>('Namespace');
  const config = configMap.data ?? {};
  const secretKeys = Object.keys({ ...secret.data, ...secret.stringData });
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0]!;
  const migration = job.spec.template.spec.containers[0]!;
  const port = Number(config.PORT ?? runtimeEnv.get('PORT') ?? 3000);
  const portNumber = (port: number | string | undefined) =>
    typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort;

  it('lists every manifest in kustomization.yaml but the Secret example, and each exists', () => {
    for (const file of kustomization.resources) {
      expect(existsSync(path.join(root, K8S, file)), file).toBe(true);
    }
    expect([...kustomization.resources].sort()).toEqual(
      files.filter((f) => !/^(kustomization|secret\.example)\.yaml$/.test(f)).sort(),
    );
    expect(kustomization.namespace).toBe(namespace.metadata.name);
    expect(secret.metadata.namespace).toBe(namespace.metadata.name);
    const images = (kustomization.images ?? []).map((i) => i.name);
    expect(images).toContain(container.image);
    expect(images).toContain(migration.image);
  });

  it('probes /readyz for readiness and /healthz for liveness and start, on the server port', () => {
    expect(container.readinessProbe?.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe?.httpGet.path).toBe('/healthz');
    expect(container.startupProbe?.httpGet.path).toBe('/healthz');
    for (const probe of [
      container.readinessProbe,
      container.livenessProbe,
      container.startupProbe,
    ]) {
      expect(portNumber(probe?.httpGet.port)).toBe(port);
    }
  });

  it('drains without a preStop hook, and gives the server time to end on its own', () => {
    const drain = Number(config.SHUTDOWN_DRAIN_SECONDS ?? 0);
    const limit = Number(config.SHUTDOWN_TIMEOUT_SECONDS ?? 10);
    expect(drain).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds ?? 30).toBeGreaterThan(drain + limit);
    expect(container.lifecycle?.preStop).toBeUndefined();
    // A load balancer that polls /readyz as often notices the drain before it ends.
    const readiness = container.readinessProbe!;
    expect((readiness.periodSeconds ?? 10) * (readiness.failureThreshold ?? 3)).toBeLessThanOrEqual(
      drain,
    );
  });

  it('runs two pods or more, not as root, on a read-only file system, with resources', () => {
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    for (const [spec, one] of [
      [pod, container],
      [job.spec.template.spec, migration],
    ] as const) {
      const context = { ...spec.securityContext, ...one.securityContext };
      expect(context.runAsNonRoot).toBe(true);
      expect(context.runAsUser).toBeGreaterThan(0);
      expect(context.readOnlyRootFilesystem).toBe(true);
      expect(context.allowPrivilegeEscalation).toBe(false);
      expect(context.capabilities?.drop).toEqual(['ALL']);
      expect(one.resources?.requests?.memory).toBeDefined();
      expect(one.resources?.limits?.memory).toBeDefined();
    }
    // With DATABASE_URL the data folder is not used: nothing is mounted there, and no disk.
    const mounts = container.volumeMounts ?? [];
    expect(mounts.map((m) => m.mountPath)).not.toContain(runtimeEnv.get('DATA_DIR'));
    for (const mount of mounts) {
      expect(pod.volumes?.find((v) => v.name === mount.name)?.emptyDir).toBeDefined();
    }
    expect(pod.volumes?.filter((v) => v.persistentVolumeClaim)).toEqual([]);
  });

  it('serves metrics on the port named metrics, announced to Prometheus', () => {
    const metrics = Number(config.METRICS_PORT);
    expect(portNumber('metrics')).toBe(metrics);
    expect(metrics).not.toBe(port);
    const annotations = deployment.spec.template.metadata.annotations ?? {};
    expect(annotations['prometheus.io/scrape']).toBe('true');
    expect(Number(annotations['prometheus.io/port'])).toBe(metrics);
    expect(annotations['prometheus.io/path']).toBe('/metrics');
  });

  it('migrates with a Job that runs the built admin command once', () => {
    const argv = [...(migration.command ?? []), ...(migration.args ?? [])];
    expect(argv).toEqual(['node', 'apps/server/dist/admin.js', 'migrate']);
    expect(adminCommandKnown('migrate')).toBe(true);
    expect(['Never', 'OnFailure']).toContain(job.spec.template.spec.restartPolicy);
    expect(migration.image).toBe(container.image);
  });

  it('takes secrets only from keys the Secret has, and its settings from the ConfigMap', () => {
    const refs = [container, migration].flatMap((c) =>
      (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : [])),
    );
    expect(refs.map((r) => r.key)).toContain('DATABASE_URL');
    for (const ref of refs) {
      expect(ref.name).toBe(secret.metadata.name);
      expect(secretKeys).toContain(ref.key);
    }
    expect(container.envFrom).toContainEqual({ configMapRef: { name: configMap.metadata.name } });
    // The server refuses OIDC_PROVIDERS and OIDC_PROVIDERS_FILE together.
    const names = [...Object.keys(config), ...(container.env ?? []).map((e) => e.name)];
    expect(names.filter((n) => n.startsWith('OIDC_PROVIDERS')).length).toBeLessThanOrEqual(1);
  });

  it('uses, and shows commented out, only settings the server reads', () => {
    const used = [
      ...Object.keys(config),
      ...commentedSettings(`${K8S}/configmap.yaml`),
      ...secretKeys,
      ...[container, migration].flatMap((c) => (c.env ?? []).map((e) => e.name)),
    ];
    expect(unknownSettings(used)).toEqual([]);
  });

  it('routes the Service to the pods’ http port and keeps one pod through disruptions', () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(labels).toEqual(expect.objectContaining(deployment.spec.selector.matchLabels));
    expect(labels).toEqual(expect.objectContaining(service.spec.selector));
    expect(labels).toEqual(expect.objectContaining(budget.spec.selector.matchLabels));
    expect(portNumber(service.spec.ports[0]?.targetPort)).toBe(port);
    expect(budget.spec.minAvailable).toBeGreaterThanOrEqual(1);
    expect(budget.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
  });
});
