import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createTeam,
} from '../../../test/factories.ts';
import { adminCall, expectAdminRefused } from '../../../test/support/admin-call.ts';
import { createSignedInCast, type Role } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

/** A team of its own, with one collection and one link, and the cast's members in it. */
async function teamWithContent() {
  const team = await createTeam(db, cast.org.id, { name: `Platform ${newId()}` });
  await addTeamMember(db, team, cast.teamMember.id);
  await addTeamMember(db, team, cast.teamEditor.id, 'editor');
  const tools = await createCollection(db, { team }, { name: 'Tools' });
  const link = await createLink(db, tools, { name: 'Build server', url: 'https://ci.example' });
  return { team, tools, link };
}

const spaceOf = (teamId: string, who: Role | null) =>
  adminCall(app, 'GET', `/teams/${teamId}/space`, who ? cast[who] : null);

// GET /api/admin/teams/{id}/space: a team's space for the people who run it (decision 0008).
describe('GET /api/admin/teams/{id}/space', () => {
  it('requires authentication', async () => {
    const { team } = await teamWithContent();
    await expectAdminRefused(db, () => spaceOf(team.id, null), 401);
  });

  it('gives an administrator who is not in the team its space, with the flags of those who run it', async () => {
    const { team, tools, link } = await teamWithContent();
    const answer = await spaceOf(team.id, 'orgAdmin');
    expect(answer.statusCode, answer.body).toBe(200);
    const space = answer.json();
    expect(space).toMatchObject({ id: team.id, name: team.name, type: 'team' });
    expect(space.can.addCollection).toBe(true);
    const [collection] = space.collections;
    expect(collection).toMatchObject({ id: tools.id, name: 'Tools' });
    expect(collection.can).toMatchObject({
      edit: true,
      delete: true,
      addLink: true,
      suggest: false,
    });
    // They change the links; favorites are for the team's members.
    expect(collection.linkCan).toEqual({ edit: true, delete: true, move: true, favorite: false });
    expect(collection.items).toEqual([
      expect.objectContaining({ type: 'link', id: link.id, name: 'Build server' }),
    ]);
  });

  it("gives the team's editor its space as their menu shows it", async () => {
    const { team } = await teamWithContent();
    const answer = await spaceOf(team.id, 'teamEditor');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().collections[0].linkCan.favorite).toBe(true);
  });

  it('refuses a member who does not run the team (403), and nothing changes', async () => {
    const { team } = await teamWithContent();
    const refused = await expectAdminRefused(db, () => spaceOf(team.id, 'teamMember'), 403);
    expect(refused.code).toBe('FORBIDDEN');
  });

  it('answers 404 to an editor of another team, to people outside it and to another organization', async () => {
    const { team } = await teamWithContent();
    const other = await createTeam(db, cast.org.id);
    await addTeamMember(db, other, cast.colleague.id, 'editor');
    for (const who of ['colleague', 'member', 'outsider'] as const) {
      const refused = await expectAdminRefused(db, () => spaceOf(team.id, who), 404);
      expect(refused.code, who).toBe('NOT_FOUND');
    }
  });

  it('answers 404 for a team that does not exist', async () => {
    await expectAdminRefused(db, () => spaceOf(newId(), 'orgAdmin'), 404);
  });
});

describe('an administrator editing a team they are not in', () => {
  const auditOf = async (linkId: string) =>
    (await db.select().from(auditLog).where(eq(auditLog.targetId, linkId))).map((row) => ({
      actor: row.actorId,
      details: row.details as Record<string, unknown>,
    }));

  it('is recorded as acting as administrator; an editor of the team is not', async () => {
    const { link } = await teamWithContent();
    const byAdmin = await app.inject({
      method: 'PATCH',
      url: `/api/consumer/links/${link.id}`,
      headers: cast.orgAdmin.headers,
      payload: { name: 'Build server (new)' },
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(204);
    const byEditor = await app.inject({
      method: 'PATCH',
      url: `/api/consumer/links/${link.id}`,
      headers: cast.teamEditor.headers,
      payload: { name: 'Build server' },
    });
    expect(byEditor.statusCode, byEditor.body).toBe(204);
    const entries = await auditOf(link.id);
    expect(entries.find((e) => e.actor === cast.orgAdmin.id)?.details).toMatchObject({
      space: 'team',
      asAdministrator: true,
    });
    expect(entries.find((e) => e.actor === cast.teamEditor.id)?.details).not.toHaveProperty(
      'asAdministrator',
    );
  });
});
