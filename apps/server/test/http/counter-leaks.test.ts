import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../src/db/client.ts';
import { createTestApp } from '../app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createOrganization,
  createTeam,
  createUser,
  signIn,
} from '../factories.ts';
import { pngOf } from '../../src/modules/icons/test-images.ts';

// Menu versions come from one sequence that moves whenever anyone changes anything a menu
// can show, private collections included (migration 0013). No answer, header or body, may
// carry a version: the menu's ETag is a digest of the person's own scopes' versions, so not
// even it shows how often others change things.
const { app, db } = await createTestApp({ API_DOCS: 'public' });
const MARK = 987_654_000;

describe('the menu versions', () => {
  it('appear in no answer, not even in the menu ETag, for a member and for an administrator', async () => {
    const org = await createOrganization(db);
    const admin = await createUser(db, org.id, { role: 'admin' });
    const member = await createUser(db, org.id);
    const team = await createTeam(db, org.id);
    await addTeamMember(db, team, member.id, 'editor');
    const collection = await createCollection(db, { user: member });
    const link = await createLink(db, collection);
    await selectRows(db, sql`SELECT setval('menu_scope_version', ${MARK})`);
    // A bump of the member's scope and one of the organization's: both now near the mark.
    await createLink(db, collection);
    await selectRows(
      db,
      sql`UPDATE organizations SET consent_url = 'https://c.example' WHERE id = ${org.id}`,
    );
    const [marked] = await selectRows<{ n: string }>(
      db,
      sql`SELECT count(*) AS n FROM menu_scopes WHERE version > ${MARK}`,
    );
    expect(Number(marked?.n)).toBe(2);
    const counter = /98765\d{4}/;

    const document = await app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.entries(
      document.json<{ paths: Record<string, Record<string, unknown>> }>().paths,
    );
    const ids: Record<string, string> = {
      id: collection.id,
      collectionId: collection.id,
      teamId: team.id,
      personId: member.id,
    };
    // A link's own calls, and an icon the member uploaded for it.
    const upload = await app.inject({
      method: 'PUT',
      url: `/api/consumer/links/${link.id}/icon`,
      headers: { ...(await signIn(app, member)).headers, 'content-type': 'image/png' },
      payload: await pngOf(32),
    });
    expect(upload.statusCode).toBe(204);
    const [icon] = await selectRows<{ icon: string }>(
      db,
      sql`SELECT icon FROM links WHERE id = ${link.id}`,
    );
    const idFor = (path: string) =>
      path.startsWith('/api/icons/')
        ? icon!.icon.slice('/api/icons/'.length)
        : path.includes('/links/{id}')
          ? link.id
          : collection.id;
    const urls = paths
      .filter(([, methods]) => 'get' in methods)
      .map(([path]) =>
        path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === 'id' ? idFor(path) : (ids[name] ?? member.id),
        ),
      )
      // The live-updates streams never end: their events say nothing but "changed" (decision
      // 0062).
      .filter(
        (url) => !url.startsWith('/api/docs') && !url.includes('/sso/') && !url.endsWith('/events'),
      );
    expect(urls.length).toBeGreaterThan(15);

    for (const person of [member, admin]) {
      const { headers } = await signIn(app, person);
      let read = 0;
      for (const url of urls) {
        const response = await app.inject({ method: 'GET', url, headers });
        if (response.statusCode === 200) read += 1;
        const { etag } = response.headers;
        expect(response.body, `GET ${url}`).not.toMatch(counter);
        expect(JSON.stringify(response.headers), `GET ${url}`).not.toMatch(counter);
        if (url === '/api/consumer/menu') expect(etag).toMatch(/^W\/"m[\w-]{27}"$/);
        // An icon's ETag is its address: a digest of its images, the same for everyone.
        else if (url.startsWith('/api/icons/')) expect(etag).toMatch(/^"[\w-]{32}-\d+"$/);
        else expect(etag, `GET ${url}`).toBeUndefined();
      }
      // Most calls answered with their content (the administrator's all of them).
      expect(read).toBeGreaterThan(urls.length / 2);
    }
  });
});
