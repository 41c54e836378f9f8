// The database and server under test: a fresh PostgreSQL database, sign-in, the menu,
// the queries of the peer search and the links the write mixes delete.
import pg from 'pg';
import type { BenchData } from './dataset.ts';
import { Prng } from './prng.ts';
import { FIRST_NAMES, LAST_NAMES } from './words.ts';

/** The database the benchmark creates and drops: a plain name, never quoted. */
export function checkDatabaseName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`--database must be a lower-case identifier, not ${JSON.stringify(name)}`);
  }
  return name;
}

export async function freshPostgres(adminUrl: string, database: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${checkDatabaseName(database)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function dropPostgres(adminUrl: string, database: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin
    .query(`DROP DATABASE IF EXISTS ${checkDatabaseName(database)} WITH (FORCE)`)
    .finally(() => admin.end());
}

export async function signIn(base: string, data: BenchData): Promise<Record<string, string>> {
  const response = await fetch(`${base}/api/auth/sessions/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'email-password', email: data.email, password: data.password }),
  });
  if (response.status !== 201) {
    throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  }
  const { token } = (await response.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

export interface MenuFetch {
  status: number;
  etag: string | null;
  body: string;
  links: number;
}

function countLinks(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countLinks(v), 0);
  if (value && typeof value === 'object') {
    const self = (value as { type?: unknown }).type === 'link' ? 1 : 0;
    return Object.values(value).reduce((n: number, v) => n + countLinks(v), self);
  }
  return 0;
}

export async function fetchMenu(base: string, headers: Record<string, string>): Promise<MenuFetch> {
  const response = await fetch(`${base}/api/consumer/menu`, { headers });
  const body = await response.text();
  const links = response.status === 200 ? countLinks(JSON.parse(body)) : 0;
  return { status: response.status, etag: response.headers.get('etag'), body, links };
}

/** Varied peer searches: name beginnings, surnames, e-mail fragments. */
export function peerPaths(): string[] {
  const rng = new Prng(7);
  const queries = [
    ...FIRST_NAMES.map((n) => n.slice(0, 3).toLowerCase()),
    ...LAST_NAMES.map((n) => n.toLowerCase()),
    ...Array.from({ length: 40 }, () => `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`),
    ...Array.from({ length: 20 }, () => `${rng.pick(LAST_NAMES).toLowerCase()}.${rng.int(99_999)}`),
  ];
  for (let i = queries.length - 1; i > 0; i -= 1) {
    const j = rng.int(i + 1);
    [queries[i], queries[j]] = [queries[j] ?? '', queries[i] ?? ''];
  }
  return queries.map((q) => `/api/consumer/peers?query=${encodeURIComponent(q)}&limit=20`);
}

/**
 * Links for the write mix to delete, made beforehand and spread round-robin over
 * `spread` scratch collections in the user's My Space.
 */
export async function writePool(
  url: string,
  data: BenchData,
  tag: string,
  count: number,
  spread: number,
): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const scratch = Array.from(
      { length: spread },
      (_, k) => `wb${tag}${String(k).padStart(18, '0')}`,
    );
    await client.query(
      `INSERT INTO collections (id, organization_id, owner_type, owner_user_id, parent_id, name, position, created_by)
       SELECT s.id, $2, 'user', $3, $4, 'Write benchmark', base.p + s.n, $3
       FROM unnest($1::text[]) WITH ORDINALITY AS s(id, n), (
         SELECT coalesce(max(p), -1) AS p FROM (
           SELECT max(position) AS p FROM links WHERE collection_id = $4
           UNION ALL SELECT max(position) FROM favorites WHERE collection_id = $4
           UNION ALL SELECT max(position) FROM collections WHERE parent_id = $4) t) base`,
      [scratch, data.organizationId, data.userId, data.rootId],
    );
    const rows = await client.query<{ id: string }>(
      `INSERT INTO links (id, organization_id, collection_id, name, url, position, created_by)
       SELECT 'wb' || $5 || lpad(g::text, 18, '0'), $1, ($2::text[])[g % $6 + 1], 'Scratch ' || g,
              'https://example.com/' || g, g / $6, $3
       FROM generate_series(0, $4 - 1) g ORDER BY g RETURNING id`,
      [data.organizationId, scratch, data.userId, count, tag, spread],
    );
    return rows.rows.map((r) => `/api/consumer/links/${r.id}`);
  } finally {
    await client.end();
  }
}

/**
 * A collection of `count` links in the user's My Space, for the reorder row (decision 0075):
 * its id, and two orders of all its items (as they are, and reversed) as order-call bodies.
 */
export async function reorderCollection(
  url: string,
  data: BenchData,
  count: number,
): Promise<{ id: string; bodies: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const id = `wro${String(count).padStart(18, '0')}`;
    await client.query(
      `INSERT INTO collections (id, organization_id, owner_type, owner_user_id, parent_id, name, position, created_by)
       SELECT $1, $2, 'user', $3, $4, 'Reorder benchmark',
              coalesce((SELECT max(position) + 1 FROM collections WHERE parent_id = $4), 0), $3`,
      [id, data.organizationId, data.userId, data.rootId],
    );
    const rows = await client.query<{ id: string }>(
      `INSERT INTO links (id, organization_id, collection_id, name, url, position, created_by)
       SELECT 'wr' || lpad(g::text, 19, '0'), $1, $2, 'Ordered ' || g,
              'https://example.com/ordered/' || g, g, $3
       FROM generate_series(0, $4 - 1) g ORDER BY g RETURNING id`,
      [data.organizationId, id, data.userId, count],
    );
    const items = rows.rows.map((r) => ({ type: 'link', id: r.id }));
    return {
      id,
      bodies: [JSON.stringify({ items: [...items].reverse() }), JSON.stringify({ items })],
    };
  } finally {
    await client.end();
  }
}

/** The user's own collections that are not shared: where spread writes add links. */
export async function ownCollections(url: string, data: BenchData): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ id: string }>(
      `SELECT id FROM collections
       WHERE owner_user_id = $1 AND name <> 'Write benchmark'
         AND id NOT IN (SELECT collection_id FROM collection_shares)
       ORDER BY is_root DESC, position, id LIMIT 10`,
      [data.userId],
    );
    return rows.rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/**
 * An administrator of the benchmark's organization (the data set makes every thousandth
 * person one; every person has the benchmark's password) and a team of it, for the console.
 */
export async function benchAdministrator(
  url: string,
  data: BenchData,
): Promise<{ email: string; password: string; teamId: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const admins = await client.query<{ email: string; organizationId: string }>(
      `SELECT u.email, u.organization_id AS "organizationId" FROM users u
       JOIN users me ON me.organization_id = u.organization_id AND lower(me.email) = lower($1)
       WHERE u.role = 'admin' AND u.status = 'active' ORDER BY u.email LIMIT 1`,
      [data.email],
    );
    const admin = admins.rows[0];
    if (!admin) throw new Error('the data set has no administrator');
    const teams = await client.query<{ id: string }>(
      `SELECT t.id FROM teams t WHERE t.organization_id = $1
       ORDER BY (SELECT count(*) FROM team_memberships tm WHERE tm.team_id = t.id) DESC LIMIT 1`,
      [admin.organizationId],
    );
    return { email: admin.email, password: data.password, teamId: teams.rows[0]?.id ?? '' };
  } finally {
    await client.end();
  }
}

/** The console's people list: first pages, searches by name and e-mail, and filters. */
export function peopleListPaths(teamId: string): string[] {
  const rng = new Prng(11);
  const searches = [
    ...FIRST_NAMES.map((n) => n.slice(0, 3).toLowerCase()),
    ...LAST_NAMES.map((n) => n.toLowerCase()),
    ...Array.from({ length: 20 }, () => `${rng.pick(LAST_NAMES).toLowerCase()}.${rng.int(99_999)}`),
  ].map((q) => `/api/admin/people?q=${encodeURIComponent(q)}&limit=50`);
  const filters = [
    '/api/admin/people?limit=50',
    '/api/admin/people?role=admin&limit=50',
    '/api/admin/people?status=active&limit=50',
    '/api/admin/people?signIn=never&limit=50',
    '/api/admin/people?signIn=password&limit=50',
    `/api/admin/people?team=${teamId}&limit=50`,
  ];
  return [...searches, ...filters];
}
