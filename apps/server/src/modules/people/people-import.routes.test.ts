// People from a CSV file over HTTP (decision 0085): what only HTTP shows — the schemas, the
// body limit of the file, a body that is not UTF-8, authentication. The rules are the
// service's (people-import.service.test.ts).
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import { countRows } from '../../../test/factories.ts';
import { createSignedInCast } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

const post = (
  url: string,
  payload: string | object,
  headers: Record<string, string> = cast.orgAdmin.headers,
) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/people/import${url}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload,
  });

describe('the import’s routes', () => {
  it('previews, then imports, and the people are in the list', async () => {
    const csv = 'Name,Email\n"Rita, Route",rita@example.test\n';
    const preview = await post('/preview', { csv });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ create: 1, change: 0, refused: [], mailEnabled: false });
    const done = await post('', { csv, sendInvitations: true });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({
      created: 1,
      changed: 0,
      unchanged: 0,
      refused: [],
      invitationsMailed: 0,
    });
    const list = await app.inject({
      method: 'GET',
      url: '/api/admin/people?q=rita',
      headers: cast.orgAdmin.headers,
    });
    expect(list.json().items).toMatchObject([{ name: 'Rita, Route', status: 'invited' }]);
  });

  it('refuses members (403) and strangers (401), and a body that is not UTF-8 (400), writing nothing', async () => {
    const before = await countRows(db, 'users');
    const body = { csv: 'name,email\nX,x@example.test' };
    expect((await post('/preview', body, cast.member.headers)).statusCode).toBe(403);
    expect((await post('', { ...body, sendInvitations: false }, {})).statusCode).toBe(401);
    const broken = Buffer.concat([
      Buffer.from('{"csv":"name,email\\nX'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(',x@example.test","sendInvitations":false}'),
    ]);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/admin/people/import',
      headers: { ...cast.orgAdmin.headers, 'content-type': 'application/json' },
      payload: broken,
    });
    expect(refused.statusCode).toBe(400);
    expect(
      (await post('', { csv: 'name,email\nX\u0000,x@example.test', sendInvitations: false }))
        .statusCode,
    ).toBe(400);
    expect((await post('', { csv: 'a,b', sendInvitations: false, extra: 1 })).statusCode).toBe(400);
    expect(await countRows(db, 'users')).toBe(before);
  });

  it('takes a file of 5 MB, and refuses a larger one in words', async () => {
    const line = `Someone,${'s'.repeat(90)}@example.test\n`;
    const big = 'name,email\n' + line.repeat(Math.ceil((5.2 * 1024 * 1024) / line.length));
    const answer = await post('/preview', { csv: big });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toMatch(/^The file is 5\.2 MB; an import takes 5 MB at most/);
  });
});
