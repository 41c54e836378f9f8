// The instance registry (decision 0082) on a real database: instances note themselves, the
// jobs they run and the streams open on them; one gone without a word is taken over by
// another — its jobs handed to be failed, the links its rounds held given back, its streams
// forgotten — and an instance only paused comes back with its streams. The caps on streams
// count every instance's.
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../db/client.ts';
import { instanceJobs, instances, linkChecks, linkIcons, liveStreams } from '../db/schema/index.ts';
import { createTestDatabase } from '../../test/app.ts';
import {
  createCollection,
  createLink,
  createOrganization,
  createUser,
} from '../../test/factories.ts';
import { createInstanceRegistry, type HeldJob } from './instances.ts';

const database = await createTestDatabase();
const { db } = database;
const log = pino({ level: 'silent' });
/** Timers that never fire during a test: the tests look for gone instances themselves. */
const still = { heartbeatMs: 3_600_000, deadAfterSeconds: 15, reapEveryMs: 3_600_000 };

const registry = () => createInstanceRegistry({ db, log, timings: still });

/** Makes an instance look unseen for a minute. */
const silence = (id: string) =>
  db
    .update(instances)
    .set({ seenAt: sql`now() - interval '1 minute'` })
    .where(eq(instances.id, id));

async function place() {
  const org = await createOrganization(db);
  const user = await createUser(db, org.id);
  const collection = await createCollection(db, { user });
  const link = await createLink(db, collection);
  return { user, link };
}

describe('the instance registry', () => {
  it('takes over from an instance gone without a word, once, and leaves the living alone', async () => {
    const gone = registry();
    const alive = registry();
    const bystander = registry();
    await Promise.all([gone.start(), alive.start(), bystander.start()]);
    const { user, link } = await place();
    await gone.jobStarted('00000000-0000-4000-8000-000000000001', 'send-mail');
    await gone.jobStarted('00000000-0000-4000-8000-000000000002', 'link-icons');
    await alive.jobStarted('00000000-0000-4000-8000-000000000003', 'link-checks');
    const stream = await gone.admitStream(user.id, 's:laptop', { perPerson: 5, perSession: 5 });
    expect(stream.admitted).toBe(true);
    await db.update(linkIcons).set({ takenBy: gone.id, dueAt: sql`now() + interval '1 minute'` });
    await db
      .update(linkChecks)
      .set({ takenBy: gone.id, dueAt: sql`now() + interval '5 minutes'` })
      .where(eq(linkChecks.linkId, link.id));
    await silence(gone.id);

    const handed: HeldJob[][] = [];
    alive.whenGone(async (jobs) => void handed.push(jobs));
    bystander.whenGone(async (jobs) => void handed.push(jobs));
    await Promise.all([alive.reapNow(), bystander.reapNow()]);

    // One of them took it over, with the gone instance's jobs only.
    expect(handed).toHaveLength(1);
    expect(handed[0]!.map((job) => job.queue).sort()).toEqual(['link-icons', 'send-mail']);
    const rows = await db.select({ id: instances.id }).from(instances);
    expect(rows.map((row) => row.id).sort()).toEqual([alive.id, bystander.id].sort());
    expect(await db.select().from(instanceJobs)).toHaveLength(1);
    expect(await db.select().from(liveStreams)).toHaveLength(0);
    const [icon] = await selectRows<{ taken: string | null; due: boolean }>(
      db,
      sql`SELECT taken_by AS taken, due_at <= now() AS due FROM link_icons WHERE link_id = ${link.id}`,
    );
    expect(icon).toEqual({ taken: null, due: true });
    const [check] = await selectRows<{ taken: string | null; due: boolean }>(
      db,
      sql`SELECT taken_by AS taken, due_at <= now() AS due FROM link_checks WHERE link_id = ${link.id}`,
    );
    expect(check).toEqual({ taken: null, due: true });

    // A second look finds nothing more to take over.
    await alive.reapNow();
    expect(handed).toHaveLength(1);
    await Promise.all([gone.stop(), alive.stop(), bystander.stop()]);
  });

  it('writes itself and its open streams again when it was only paused', async () => {
    const paused = registry();
    const other = registry();
    await Promise.all([paused.start(), other.start()]);
    const { user } = await place();
    const stream = await paused.admitStream(user.id, 's:tab', { perPerson: 5, perSession: 5 });
    await silence(paused.id);
    let tookOver = false;
    other.whenGone(async () => {
      tookOver = true;
    });
    await other.reapNow();
    expect(tookOver).toBe(true);
    expect(await db.select().from(liveStreams).where(eq(liveStreams.userId, user.id))).toEqual([]);
    // Its next heartbeat finds its row gone, and writes it and its stream again.
    await paused.beatNow();
    expect(await db.select().from(instances).where(eq(instances.id, paused.id))).toHaveLength(1);
    expect(
      (await db.select().from(liveStreams).where(eq(liveStreams.userId, user.id))).map(
        (row) => row.id,
      ),
    ).toEqual([stream.admitted ? stream.id : '']);
    // A job it starts while taken for gone writes its row again first.
    await silence(paused.id);
    await other.reapNow();
    await paused.jobStarted('00000000-0000-4000-8000-000000000009', 'send-mail');
    expect(await db.select().from(instances).where(eq(instances.id, paused.id))).toHaveLength(1);
    expect(
      await db.select().from(instanceJobs).where(eq(instanceJobs.instanceId, paused.id)),
    ).toHaveLength(1);
    await Promise.all([paused.stop(), other.stop()]);
  });

  it('counts a person and a session across instances, and a closed stream frees its place', async () => {
    const one = registry();
    const two = registry();
    await Promise.all([one.start(), two.start()]);
    const { user } = await place();
    const caps = { perPerson: 3, perSession: 2 };
    const a = await one.admitStream(user.id, 's:laptop', caps);
    const b = await two.admitStream(user.id, 's:laptop', caps);
    expect([a.admitted, b.admitted]).toEqual([true, true]);
    expect(await one.admitStream(user.id, 's:laptop', caps)).toEqual({
      admitted: false,
      over: 'session',
      cap: 2,
    });
    expect((await two.admitStream(user.id, 's:phone', caps)).admitted).toBe(true);
    expect(await one.admitStream(user.id, 's:tablet', caps)).toEqual({
      admitted: false,
      over: 'person',
      cap: 3,
    });
    // Opened at once on both instances, one place left: one gets it.
    if (a.admitted) one.streamClosed(a.id);
    await expect
      .poll(
        async () =>
          (await db.select().from(liveStreams).where(eq(liveStreams.userId, user.id))).length,
      )
      .toBe(2);
    const raced = await Promise.all([
      one.admitStream(user.id, 's:tablet', caps),
      two.admitStream(user.id, 's:watch', caps),
    ]);
    expect(raced.filter((answer) => answer.admitted)).toHaveLength(1);
    // Stopping forgets what was open there.
    await one.stop();
    await two.stop();
    expect(await db.select().from(liveStreams).where(eq(liveStreams.userId, user.id))).toHaveLength(
      0,
    );
  });
});
