// Team and organization content changed in place by the people who run the space
// (decision 0008). What each change writes to the audit log, before and after, and who may
// make it are the services' (collections.service.test.ts, links.service.test.ts); here, what
// only a request shows: where the entry says the change came from, and the top-level
// collection's refused bodies.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, collections } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { createSignedInCast, createWorld, type Person } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);
const c = '/api/consumer';

const send = (person: Person, method: 'POST' | 'PATCH', url: string, payload?: object) =>
  app.inject({
    method,
    url: `${c}${url}`,
    headers: { ...person.headers, 'user-agent': 'content-test' },
    ...(payload ? { payload } : {}),
  });

describe('team content edited in place, through the API', () => {
  it('records who made the change and from where', async () => {
    const w = await createWorld(db, cast);
    const editor = cast.teamEditor;
    const added = await send(editor, 'POST', `/collections/${w.spaces.team.id}/links`, {
      name: 'Wiki',
      url: 'wiki.example.com',
    });
    expect(added.statusCode).toBe(204);
    const [created] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'content.link-created'), eq(auditLog.actorId, editor.id)));
    expect(created).toMatchObject({
      organizationId: cast.org.id,
      actorName: editor.name,
      actorEmail: editor.email,
      targetLabel: 'Wiki',
      userAgent: 'content-test',
      ip: expect.any(String),
      details: { space: 'team' },
    });
  });

  // A top-level collection names its space instead of a parent; who may add one where:
  // collections.service.test.ts.
  const refused: [string, (teamId: string) => object][] = [
    ['a malformed space id', () => ({ name: 'X', spaceId: 'nope' })],
    ['a blank name', (team) => ({ name: '  ', spaceId: team })],
    ['an unknown property', (team) => ({ name: 'X', spaceId: team, ownerType: 'team' })],
  ];
  it.each(refused)(
    'refuses a top-level collection with %s (400), storing nothing',
    async (_, body) => {
      const before = await db.select().from(collections);
      const response = await send(cast.teamEditor, 'POST', '/collections', body(cast.team.id));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(await db.select().from(collections)).toHaveLength(before.length);
    },
  );
});
