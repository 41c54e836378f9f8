import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { selectRows } from '../client.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoIfEmpty } from './demo.ts';

const { app, database, db, config } = await createTestApp();

const count = async (query: ReturnType<typeof sql>) =>
  Number((await selectRows<{ n: number | string }>(db, query))[0]?.n ?? 0);

const seeded = await seedDemoIfEmpty(database, config.argon2);

const signIn = () =>
  app.inject({
    method: 'POST',
    url: '/api/auth/sessions/',
    payload: { type: 'email-password', email: DEMO_EMAIL, password: DEMO_PASSWORD },
  });

describe('seedDemoIfEmpty', () => {
  it('seeds an empty database once and leaves a seeded one alone', async () => {
    expect(seeded).toBe(true);
    const before = {
      users: await count(sql`SELECT count(*) AS n FROM users`),
      links: await count(sql`SELECT count(*) AS n FROM links`),
      collections: await count(sql`SELECT count(*) AS n FROM collections`),
    };
    expect(await seedDemoIfEmpty(database, config.argon2)).toBe(false);
    expect(await count(sql`SELECT count(*) AS n FROM organizations`)).toBe(1);
    expect(await count(sql`SELECT count(*) AS n FROM users`)).toBe(before.users);
    expect(await count(sql`SELECT count(*) AS n FROM links`)).toBe(before.links);
    expect(await count(sql`SELECT count(*) AS n FROM collections`)).toBe(before.collections);
  });

  it('lets the demo person sign in with the demo password', async () => {
    const response = await signIn();
    expect(response.statusCode).toBe(201);
    expect(response.json<{ token: string }>().token).toEqual(expect.any(String));
  });

  it('makes the demo person an admin in two or three teams, among 100+ colleagues', async () => {
    const [dana] = await selectRows<{ id: string; name: string; role: string; teams: number }>(
      db,
      sql`SELECT u.id, u.name, u.role,
                 (SELECT count(*)::int FROM team_memberships m WHERE m.user_id = u.id) AS teams
          FROM users u WHERE lower(u.email) = ${DEMO_EMAIL}`,
    );
    expect(dana).toMatchObject({ name: 'Dana Demo', role: 'admin' });
    expect(dana?.teams).toBeGreaterThanOrEqual(2);
    expect(dana?.teams).toBeLessThanOrEqual(3);
    expect(await count(sql`SELECT count(*) AS n FROM users`)).toBeGreaterThanOrEqual(101);
    const emails = await count(sql`SELECT count(DISTINCT lower(email)) AS n FROM users`);
    const names = await count(sql`SELECT count(DISTINCT name) AS n FROM users`);
    expect(emails).toBe(await count(sql`SELECT count(*) AS n FROM users`));
    expect(names).toBe(emails);
  });

  it('gives every person exactly one root collection, "My Space"', async () => {
    const wrong = await selectRows(
      db,
      sql`SELECT u.id FROM users u
          LEFT JOIN collections c ON c.owner_user_id = u.id AND c.is_root
          GROUP BY u.id HAVING count(c.id) <> 1`,
    );
    expect(wrong).toEqual([]);
    expect(
      await count(sql`SELECT count(*) AS n FROM collections WHERE is_root AND name <> 'My Space'`),
    ).toBe(0);
  });

  it('numbers the items of every collection 0, 1, 2… across links, favorites and collections', async () => {
    const gaps = await selectRows(
      db,
      sql`SELECT parent, array_agg(position ORDER BY position) AS positions FROM (
            SELECT collection_id AS parent, position FROM links
            UNION ALL SELECT collection_id, position FROM favorites
            UNION ALL SELECT parent_id, position FROM collections WHERE parent_id IS NOT NULL
          ) items GROUP BY parent
          HAVING max(position) <> count(*) - 1 OR count(DISTINCT position) <> count(*)`,
    );
    expect(gaps).toEqual([]);
  });

  it('shares one of Dana’s collections and one of a colleague’s, owners included', async () => {
    const shares = await selectRows<{ owner: string; creator: string; members: string[] }>(
      db,
      sql`SELECT c.owner_user_id AS owner, s.created_by AS creator,
                 array_agg(m.user_id) AS members
          FROM collection_shares s
          JOIN collections c ON c.id = s.collection_id
          JOIN share_members m ON m.share_id = s.id
          GROUP BY s.id, c.owner_user_id, s.created_by`,
    );
    const [dana] = await selectRows<{ id: string }>(
      db,
      sql`SELECT id FROM users WHERE email = ${DEMO_EMAIL}`,
    );
    expect(shares.length).toBeGreaterThanOrEqual(2);
    for (const share of shares) {
      expect(share.creator).toBe(share.owner);
      expect(share.members).toContain(share.owner);
      expect(share.members).toContain(dana?.id);
      expect(share.members.length).toBeGreaterThanOrEqual(3);
    }
    expect(shares.filter((s) => s.owner === dana?.id)).toHaveLength(1);
    const foreignLinks = await count(
      sql`SELECT count(*) AS n FROM links l
          JOIN collection_shares s ON s.collection_id = l.collection_id
          WHERE s.created_by <> ${dana?.id ?? ''} AND l.created_by = s.created_by`,
    );
    expect(foreignLinks).toBeGreaterThan(0);
  });

  it('favorites only team and organization links, placed in Dana’s own collections', async () => {
    const rows = await selectRows<{ owner_type: string; placed_in: string }>(
      db,
      sql`SELECT c.owner_type, p.owner_type AS placed_in
          FROM favorites f
          JOIN links l ON l.id = f.link_id
          JOIN collections c ON c.id = l.collection_id
          JOIN collections p ON p.id = f.collection_id`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(['team', 'organization']).toContain(row.owner_type);
      expect(row.placed_in).toBe('user');
    }
  });

  it('serves the demo menu with a personal space, team spaces and the organization space', async () => {
    const token = (await signIn()).json<{ token: string }>().token;
    const response = await app.inject({
      method: 'GET',
      url: '/api/consumer/menu',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    const menu = response.json<{
      profile: { email: string };
      organization: { name: string };
      spaces: { type: string; collections: { id: string; items: { type: string }[] }[] }[];
    }>();
    expect(menu.profile.email).toBe(DEMO_EMAIL);
    expect(menu.organization.name).toBe('Northwind Labs');
    const types = menu.spaces.map((s) => s.type);
    expect(types.filter((t) => t === 'personal')).toHaveLength(1);
    expect(types.filter((t) => t === 'team')).toHaveLength(3);
    expect(types.filter((t) => t === 'organization')).toHaveLength(1);
    const personal = menu.spaces.find((s) => s.type === 'personal');
    const mySpace = personal?.collections[0];
    const kinds = new Set(mySpace?.items.map((i) => i.type));
    // Dana's own share stands among her collections (decision 0056).
    expect(kinds).toEqual(new Set(['link', 'link-favorite', 'collection', 'collection-share']));
    const sharedRoot = personal?.collections.find((c) => c.id === 'shared-root');
    expect(sharedRoot?.items.length).toBeGreaterThanOrEqual(1);
  });

  it('shows what link checks found: broken team links, and colleagues’ moved and broken links', async () => {
    const states = await selectRows<{ name: string; state: string; movedTo: string | null }>(
      db,
      sql`SELECT l.name, k.state, k.moved_to AS "movedTo" FROM link_checks k
          JOIN links l ON l.id = k.link_id WHERE k.state IN ('broken', 'moved') ORDER BY l.name`,
    );
    expect(states).toEqual([
      { name: 'Book club', state: 'broken', movedTo: null },
      {
        name: 'Expense reports',
        state: 'moved',
        movedTo: 'https://expenses.northwind.example/reports',
      },
      { name: 'Holiday calendar', state: 'broken', movedTo: null },
      { name: 'Onboarding checklist', state: 'broken', movedTo: null },
      { name: 'Partner portal', state: 'broken', movedTo: null },
      { name: 'Price list', state: 'broken', movedTo: null },
      { name: 'Project notes', state: 'broken', movedTo: null },
      { name: 'Team offsite photos', state: 'broken', movedTo: null },
      { name: 'VPN setup guide', state: 'broken', movedTo: null },
    ]);
    // Dana, an administrator, is told of the teams' broken links, never of colleagues' own.
    const token = (await signIn()).json<{ token: string }>().token;
    const attention = await app.inject({
      method: 'GET',
      url: '/api/consumer/links/attention',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(
      attention
        .json<{ items: { name: string }[] }>()
        .items.map((i) => i.name)
        .sort(),
    ).toEqual([
      'Holiday calendar',
      'Onboarding checklist',
      'Partner portal',
      'Price list',
      'VPN setup guide',
    ]);
  });
});
