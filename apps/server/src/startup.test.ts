// What the server does to its database before it listens: the demo organization, or the
// one-time setup code of the first run, printed in the banner.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupCodes } from './db/schema/index.ts';
import { createTestApp } from '../test/app.ts';
import { prepareStartup, seedDemo, startupBanner, type Startup } from './startup.ts';

const { app, database, db, config } = await createTestApp();
const { setup } = app.services;
/** What a start does before it listens: the demo, then the setup code. */
const prepare = async (settings: typeof config): Promise<Startup> =>
  prepareStartup(await seedDemo(database, settings), setup);
const embedded = database.kind === 'pglite';
const hashOf = (code: string) => createHash('sha256').update(code.replace(/-/g, '')).digest('hex');

describe('preparing the database at start', () => {
  it('without demo data and without an organization, makes a new code at every start', async () => {
    const noDemo = { ...config, demoData: false };
    const first = await prepare(noDemo);
    // An expired code of an earlier start is cleared away.
    await db.insert(setupCodes).values({ codeHash: 'old', expiresAt: new Date(Date.now() - 1000) });
    const second = await prepare(noDemo);
    expect(first.demo).toBe(false);
    expect(first.setupCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(second.setupCode).not.toBe(first.setupCode);

    // Only hashes are stored, each with an expiry a day ahead.
    const rows = await db.select().from(setupCodes);
    expect(rows.map((r) => r.codeHash).sort()).toEqual(
      [hashOf(first.setupCode!), hashOf(second.setupCode!)].sort(),
    );
    for (const row of rows) {
      const hours = (row.expiresAt.getTime() - Date.now()) / 3600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);
    }

    const banner = startupBanner(noDemo, database.kind, second);
    expect(banner).toContain(second.setupCode);
    expect(banner).toMatch(/First run/);
    expect(banner).toMatch(/npm run admin -- create-organization/);
    expect(banner).not.toMatch(/Demo sign-in/);
  });

  it(
    embedded
      ? 'with demo data on the embedded database, seeds it and prints no code'
      : 'on PostgreSQL, never seeds the demo and prints a code while there is no organization',
    async () => {
      const result = await prepare({ ...config, demoData: true });
      expect(result.demo).toBe(embedded);
      expect(result.setupCode === null).toBe(embedded);
      const banner = startupBanner({ ...config, demoData: true }, database.kind, result);
      expect(banner.includes('Demo sign-in')).toBe(embedded);
      expect(banner.includes('First run')).toBe(!embedded);
    },
  );

  it('names where the metrics are, and never the token itself', () => {
    const none = { demo: false, setupCode: null };
    expect(startupBanner(config, database.kind, none)).not.toContain('Metrics');
    const token = 'printed-never-0123456789abcdef';
    const onPort = startupBanner(
      { ...config, host: '0.0.0.0', metrics: { port: 9464, token: null } },
      database.kind,
      none,
    );
    expect(onPort).toContain('  Metrics: http://0.0.0.0:9464/metrics\n');
    const behindToken = startupBanner(
      { ...config, metrics: { port: null, token } },
      database.kind,
      none,
    );
    expect(behindToken).toContain(`  Metrics: ${config.publicUrl}/metrics (with METRICS_TOKEN)`);
    expect(behindToken).not.toContain(token);
  });

  it('prints no code once an organization exists', async () => {
    await db.execute(sql`INSERT INTO organizations (id, name) VALUES ('org-startup-test-00001', 'Here')
      ON CONFLICT DO NOTHING`);
    const result = await prepare({ ...config, demoData: false });
    expect(result).toEqual({ demo: false, setupCode: null });
    expect(startupBanner(config, database.kind, result)).not.toMatch(/First run/);
  });

  it('names the public address, where single sign-on works (decision 0054)', () => {
    const publicUrl = 'https://links.acme.example';
    const banner = startupBanner({ ...config, publicUrl }, database.kind, {
      demo: false,
      setupCode: null,
    });
    expect(banner).toContain(`Signpost is running at ${publicUrl}\n`);
  });
});
