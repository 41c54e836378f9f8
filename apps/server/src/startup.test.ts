// What the server does to its database before it listens: the demo organization, or the
// one-time setup code of the first run, printed in the banner.
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from './db/seed/demo.ts';
import { setupCodes, users } from './db/schema/index.ts';
import { hashPassword } from './lib/passwords.ts';
import { createTestApp } from '../test/app.ts';
import { createOrganization, createUser, TEST_ARGON2 } from '../test/factories.ts';
import { prepareStartup, seedDemo, startupBanner, type Startup } from './startup.ts';

const { app, database, db, config } = await createTestApp();
const { setup } = app.services;
/** What a start does before it listens: the demo, then the setup code. */
const prepare = async (settings: typeof config): Promise<Startup> =>
  prepareStartup(await seedDemo(database, settings), setup, app.services.auth);
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

    const banner = startupBanner(noDemo, second);
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
      const banner = startupBanner({ ...config, demoData: true }, result);
      expect(banner.includes('Demo sign-in')).toBe(embedded);
      expect(banner.includes('First run')).toBe(!embedded);
    },
  );

  it('names where the metrics are, and never the token itself', () => {
    const none = { demo: false, setupCode: null, demoSignIn: false };
    expect(startupBanner(config, none)).not.toContain('Metrics');
    const token = 'printed-never-0123456789abcdef';
    const onPort = startupBanner(
      { ...config, host: '0.0.0.0', metrics: { port: 9464, token: null } },
      none,
    );
    expect(onPort).toContain('  Metrics: http://0.0.0.0:9464/metrics\n');
    const behindToken = startupBanner({ ...config, metrics: { port: null, token } }, none);
    expect(behindToken).toContain(`  Metrics: ${config.publicUrl}/metrics (with METRICS_TOKEN)`);
    expect(behindToken).not.toContain(token);
  });

  it('prints no code once an organization exists', async () => {
    await db.execute(sql`INSERT INTO organizations (id, name) VALUES ('org-startup-test-00001', 'Here')
      ON CONFLICT DO NOTHING`);
    const result = await prepare({ ...config, demoData: false });
    expect(result).toEqual({ demo: false, setupCode: null, demoSignIn: embedded });
    expect(startupBanner(config, result)).not.toMatch(/First run/);
  });

  it('names the public address, where single sign-on works (decision 0054)', () => {
    const publicUrl = 'https://links.acme.example';
    const banner = startupBanner(
      { ...config, publicUrl },
      {
        demo: false,
        setupCode: null,
        demoSignIn: false,
      },
    );
    expect(banner).toContain(`Signpost is running at ${publicUrl}\n`);
  });

  it('prints the demo sign-in only while the demo account signs in with the demo password', async () => {
    // The account as the database has it: made by the demo, or here.
    let [demo] = await db.select().from(users).where(eq(users.email, DEMO_EMAIL));
    if (!demo) {
      const org = await createOrganization(db);
      await createUser(db, org.id, { email: DEMO_EMAIL, password: DEMO_PASSWORD });
      [demo] = await db.select().from(users).where(eq(users.email, DEMO_EMAIL));
    }
    const noDemoData = { ...config, demoData: false };
    const works = await prepare(noDemoData);
    expect(works.demoSignIn).toBe(true);
    expect(startupBanner(noDemoData, works)).toContain(
      `  Demo sign-in: ${DEMO_EMAIL} / ${DEMO_PASSWORD}\n`,
    );

    // Its password changed: the sign-in printed would not work.
    await db
      .update(users)
      .set({ passwordHash: await hashPassword('another-password', TEST_ARGON2) })
      .where(eq(users.id, demo!.id));
    const changed = await prepare({ ...config, demoData: true });
    expect(changed.demoSignIn).toBe(false);
    expect(startupBanner({ ...config, demoData: true }, changed)).not.toMatch(/Demo sign-in/);

    // The password back, the account disabled: not printed either.
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(DEMO_PASSWORD, TEST_ARGON2), status: 'disabled' })
      .where(eq(users.id, demo!.id));
    expect((await prepare(config)).demoSignIn).toBe(false);
  });
});

describe('the start banner, from what start found', () => {
  const found: Startup = { demo: false, setupCode: null, demoSignIn: false };
  const mail = (from: string) => ({ smtpUrl: 'smtp://mail.example.com:587', from });

  it('prints the demo sign-in when the account signs in, whatever the demo setting', () => {
    for (const demoData of [true, false]) {
      const settings = { ...config, demoData };
      expect(startupBanner(settings, { ...found, demoSignIn: true })).toContain(
        `  Demo sign-in: ${DEMO_EMAIL} / ${DEMO_PASSWORD}\n`,
      );
      // An installation without the demo account (npm run serve on a real one).
      expect(startupBanner(settings, found)).not.toMatch(/Demo sign-in/);
    }
  });

  it('warns when invitation links and mail would carry a local address', () => {
    const local = startupBanner(
      {
        ...config,
        publicUrl: 'http://localhost:3000',
        mail: mail('Signpost <signpost@localhost>'),
      },
      found,
    );
    expect(local).toContain(
      '  Warning: Invitation links point at http://localhost:3000, which only this computer can open: set PUBLIC_URL to the address people use, such as https://links.example.com.\n',
    );
    expect(local).toContain(
      '  Warning: Mail is sent from Signpost <signpost@localhost>, an address at this computer that other mail servers refuse or mark as spam: set MAIL_FROM, or PUBLIC_URL.\n',
    );
    const loopback = startupBanner(
      { ...config, publicUrl: 'http://127.0.0.1:8080', mail: null },
      found,
    );
    expect(loopback).toContain('  Warning: Invitation links point at http://127.0.0.1:8080');
    expect(loopback).not.toMatch(/Mail is sent from/);
  });

  it('warns of nothing when people get addresses they can use', () => {
    const banner = startupBanner(
      {
        ...config,
        publicUrl: 'https://links.acme.example',
        mail: mail('Signpost <signpost@links.acme.example>'),
      },
      found,
    );
    expect(banner).not.toMatch(/Warning/);
    // A public address, but mail from a local sender typed in MAIL_FROM.
    const sender = startupBanner(
      { ...config, publicUrl: 'https://links.acme.example', mail: mail('links@localhost') },
      found,
    );
    expect(sender).not.toMatch(/Invitation links point at/);
    expect(sender).toContain('  Warning: Mail is sent from links@localhost,');
  });
});
