import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organizations } from '../src/db/schema/index.ts';
import { createTestApp } from './app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createOrganization,
  createTeam,
  createUser,
  signIn,
} from './factories.ts';

// The organization's change counter (menu_version) moves whenever anyone changes anything a
// menu can show, private collections included. Only the menu's ETag may depend on it
// (docs/security.md, "Known limits"); no other answer, header or body, may carry it.
const { app, db } = await createTestApp({ API_DOCS: 'public' });
const MARK = 987_654_000;

describe('the organization-wide change counter', () => {
  it('appears in no answer but the menu ETag, for a member and for an administrator', async () => {
    const org = await createOrganization(db);
    const admin = await createUser(db, org.id, { role: 'admin' });
    const member = await createUser(db, org.id);
    const team = await createTeam(db, org.id);
    await addTeamMember(db, team, member.id, 'editor');
    const collection = await createCollection(db, { user: member });
    await createLink(db, collection);
    await db.update(organizations).set({ menuVersion: MARK }).where(eq(organizations.id, org.id));
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
    const urls = paths
      .filter(([, methods]) => 'get' in methods)
      .map(([path]) => path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? member.id))
      .filter((url) => !url.startsWith('/api/docs') && !url.includes('/sso/'));
    expect(urls.length).toBeGreaterThan(15);

    for (const person of [member, admin]) {
      const { headers } = await signIn(app, person);
      let read = 0;
      for (const url of urls) {
        const response = await app.inject({ method: 'GET', url, headers });
        if (response.statusCode === 200) read += 1;
        const { etag, ...others } = response.headers;
        expect(response.body, `GET ${url}`).not.toMatch(counter);
        expect(JSON.stringify(others), `GET ${url}`).not.toMatch(counter);
        if (url === '/api/consumer/menu') expect(etag).toMatch(counter);
        else expect(etag, `GET ${url}`).toBeUndefined();
      }
      // Most calls answered with their content (the administrator's all of them).
      expect(read).toBeGreaterThan(urls.length / 2);
    }
  });
});
