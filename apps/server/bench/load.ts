// The load generator, run as its own process so that it does not share a CPU budget or an
// event loop with what it measures: `node --import tsx bench/load.ts <spec.json>`.
// Warms up, measures, and prints one JSON line with the figures.
import autocannon from 'autocannon';
import { readFile } from 'node:fs/promises';

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** GET these paths in turn (varied queries); one path is a plain GET. */
  paths?: string[];
  /** Alternate a POST of `post.body` to the next of `post.paths` with a DELETE of the next of `deletePaths`. */
  writeMix?: { post: { paths: string[]; body: string }; deletePaths: string[] };
  /**
   * Several people writing, each in their own space: requests go to the writers in turn,
   * each a POST of `body` to the writer's collection or a DELETE of the writer's next link.
   */
  writers?: { body: string; people: { authorization: string; post: string; deletes: string[] }[] };
  /** PUT the next of `bodies` to `path`, in turn (a collection's new orders). */
  puts?: { path: string; bodies: string[] };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
}

function requests(spec: LoadSpec): autocannon.Request[] {
  if (spec.writers) {
    const { body, people } = spec.writers;
    const nextDelete = people.map(() => 0);
    let turn = 0;
    let deleteTurn = 0;
    return [
      {
        method: 'POST',
        body,
        setupRequest: (req) => {
          const writer = people[turn++ % people.length]!;
          return {
            ...req,
            path: writer.post,
            headers: {
              ...spec.headers,
              authorization: writer.authorization,
              'content-type': 'application/json',
            },
          };
        },
      },
      {
        method: 'DELETE',
        setupRequest: (req) => {
          const k = deleteTurn++ % people.length;
          const writer = people[k]!;
          const path = writer.deletes[nextDelete[k]!++ % writer.deletes.length] ?? '';
          return {
            ...req,
            path,
            headers: { ...spec.headers, authorization: writer.authorization },
          };
        },
      },
    ];
  }
  if (spec.puts) {
    const { path, bodies } = spec.puts;
    let next = 0;
    return [
      {
        method: 'PUT',
        path,
        headers: { ...spec.headers, 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] ?? '' }),
      },
    ];
  }
  if (spec.writeMix) {
    const { post, deletePaths } = spec.writeMix;
    let next = 0;
    let nextPost = 0;
    return [
      {
        method: 'POST',
        body: post.body,
        headers: { ...spec.headers, 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, path: post.paths[nextPost++ % post.paths.length] ?? '' }),
      },
      {
        method: 'DELETE',
        setupRequest: (req) => ({ ...req, path: deletePaths[next++ % deletePaths.length] ?? '' }),
      },
    ];
  }
  const paths = spec.paths ?? [];
  let next = 0;
  return [
    {
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] ?? '/' }),
    },
  ];
}

function run(spec: LoadSpec, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: seconds,
    headers: spec.headers,
    requests: requests(spec),
  });
}

async function main() {
  const file = process.argv[2];
  if (!file) throw new Error('usage: load.ts <spec.json>');
  const spec = JSON.parse(await readFile(file, 'utf8')) as LoadSpec;
  if (spec.warmupSeconds > 0) {
    // A warm-up with its own DELETE paths would use up the pool: keep the pools apart.
    const third = spec.writeMix ? Math.floor(spec.writeMix.deletePaths.length / 3) : 0;
    const writerThird = (w: { deletes: string[] }) => Math.floor(w.deletes.length / 3);
    const warm = spec.writeMix
      ? {
          ...spec,
          writeMix: { ...spec.writeMix, deletePaths: spec.writeMix.deletePaths.slice(0, third) },
        }
      : spec.writers
        ? {
            ...spec,
            writers: {
              ...spec.writers,
              people: spec.writers.people.map((w) => ({
                ...w,
                deletes: w.deletes.slice(0, writerThird(w)),
              })),
            },
          }
        : spec;
    await run(warm, spec.warmupSeconds);
    if (spec.writeMix) spec.writeMix.deletePaths = spec.writeMix.deletePaths.slice(third);
    if (spec.writers) {
      for (const w of spec.writers.people) w.deletes = w.deletes.slice(writerThird(w));
    }
  }
  const result = await run(spec, spec.seconds);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = (stats as { count: number }).count;
  }
  const out: LoadResult = {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    requests: result.requests.total,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`load: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
