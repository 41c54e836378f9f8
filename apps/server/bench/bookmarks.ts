// Bookmarks in (decision 0087): a browser's bookmark file of 10,000 links in 1,000 folders,
// previewed, then imported in one transaction into a new collection of My Space, through the
// service on a fresh migrated database of each kind — the embedded one (budget ≤ 5 s) and
// PostgreSQL (budget ≤ 2 s). The person has 2,000 links already, 500 of whose addresses the
// file holds too (duplicates, kept).
import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { AuthContext } from '../src/lib/auth-context.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { insertPerson } from '../src/db/people.ts';
import { collections, links, organizations } from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';
import { composeServer } from '../src/root.ts';
import type { Row } from './report.ts';

const LINKS = 10_000;
const FOLDERS = 1_000;
const EXISTING = 2_000;
const BUDGET_MS = { pglite: 5_000, postgres: 2_000 } as const;

export interface BookmarksBenchOptions {
  pgUrl: string | null;
  dataDir: string;
  log: (line: string) => void;
}

/**
 * A Netscape bookmark file as Chrome writes it: 1,000 folders (ten top folders, each with
 * nine sub-folders, each with nine below, and so on until 1,000), 10 links in each.
 */
export function bookmarkFile(): string {
  const out = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    '<TITLE>Bookmarks</TITLE>',
    '<H1>Bookmarks</H1>',
    '<DL><p>',
  ];
  let folder = 0;
  let link = 0;
  const write = (depth: number) => {
    const pad = '    '.repeat(depth + 1);
    folder += 1;
    out.push(`${pad}<DT><H3 ADD_DATE="1700000000">Folder ${folder}</H3>`, `${pad}<DL><p>`);
    for (let i = 0; i < LINKS / FOLDERS; i++) {
      link += 1;
      // Every twentieth address is one the person has already.
      const url =
        link % 20 === 0
          ? `https://existing.example/${link / 20}`
          : `https://site${link}.example/page`;
      out.push(`${pad}    <DT><A HREF="${url}" ADD_DATE="1700000000">Link ${link}</A>`);
    }
    for (let i = 0; i < 9 && depth < 3 && folder < FOLDERS; i++) write(depth + 1);
    out.push(`${pad}</DL><p>`);
  };
  while (folder < FOLDERS) write(0);
  out.push('</DL><p>', '');
  return out.join('\n');
}

async function measureOn(kind: 'pglite' | 'postgres', options: BookmarksBenchOptions) {
  const database = await openDatabase(
    kind === 'pglite'
      ? { url: null, dataDir: options.dataDir }
      : { url: options.pgUrl, dataDir: null },
  );
  try {
    await migrate(database);
    const config = loadConfig({ LOG_LEVEL: 'silent', OUTBOUND_REQUESTS: 'false' });
    const { services } = composeServer({ config, database, log: pino({ level: 'silent' }) });
    const { db } = database;
    const organizationId = newId();
    await db.insert(organizations).values({ id: organizationId, name: 'Benchmark' });
    const userId = await insertPerson(db, {
      organizationId,
      name: 'Bench Person',
      email: 'person@bench.test',
      role: 'member',
      status: 'active',
      passwordHash: null,
    });
    const [root] = await db
      .select({ id: collections.id })
      .from(collections)
      .where(eq(collections.ownerUserId, userId));
    const kept = newId();
    await db.insert(collections).values({
      id: kept,
      organizationId,
      ownerType: 'user',
      ownerUserId: userId,
      parentId: root!.id,
      name: 'Kept',
      position: 0,
      createdBy: userId,
    });
    for (let start = 0; start < EXISTING; start += 500) {
      await db.insert(links).values(
        Array.from({ length: 500 }, (_, i) => ({
          id: newId(),
          organizationId,
          collectionId: kept,
          name: `Existing ${start + i}`,
          url: `https://existing.example/${start + i + 1}`,
          position: start + i,
          createdBy: userId,
        })),
      );
    }
    const me = {
      sessionId: 'benchmark',
      accessTokenId: null,
      userId,
      name: 'Bench Person',
      email: 'person@bench.test',
      role: 'member',
      organizationId,
      organizationName: 'Benchmark',
      menuScopes: null,
      peopleVersion: null,
      expiresAt: null,
    } as AuthContext;
    const file = bookmarkFile();
    const target = { into: 'new' as const };
    let started = performance.now();
    const preview = await services.bookmarks.preview(me, { file, target });
    const previewMs = performance.now() - started;
    started = performance.now();
    const result = await services.bookmarks.import(
      me,
      { file, target, duplicates: 'keep' },
      { ip: null, userAgent: null },
    );
    const importMs = performance.now() - started;
    return { preview, result, previewMs, importMs, bytes: Buffer.byteLength(file) };
  } finally {
    await database.close();
  }
}

export async function measureBookmarkImport(options: BookmarksBenchOptions): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of ['pglite', 'postgres'] as const) {
    if (kind === 'postgres' && !options.pgUrl) continue;
    options.log(`Measuring an import of ${LINKS.toLocaleString('en-US')} bookmarks (${kind})…`);
    const { preview, result, previewMs, importMs, bytes } = await measureOn(kind, options);
    const what = `bookmarks from a browser's file: ${LINKS.toLocaleString('en-US')} links in ${FOLDERS.toLocaleString('en-US')} folders imported in one transaction (${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'})`;
    const budget = BUDGET_MS[kind];
    const note = `import ${importMs.toFixed(0)} ms (preview ${previewMs.toFixed(0)} ms before it); ${(bytes / 1024 / 1024).toFixed(1)} MB file; ${result.links} links, ${result.folders} folders, ${preview.duplicateCount} duplicates kept`;
    rows.push({
      what,
      budget: `≤ ${budget / 1000} s`,
      checks: [
        () =>
          result.links === LINKS && result.folders === FOLDERS && preview.duplicateCount === 500
            ? null
            : `imported ${result.links} links, ${result.folders} folders, ${preview.duplicateCount} duplicates`,
        () => (importMs <= budget ? null : `${importMs.toFixed(0)} ms > ${budget} ms`),
      ],
      note,
    });
  }
  return rows;
}
