import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, linkChecks, links } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createTeam,
} from '../../../test/factories.ts';
import { adminCall } from '../../../test/support/admin-call.ts';
import { createSignedInCast, type Role } from '../../../test/support/world.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

/** A broken link of a team of its own, its editor the cast's team editor. */
async function brokenTeamLink() {
  const team = await createTeam(db, cast.org.id);
  await addTeamMember(db, team, cast.teamEditor.id, 'editor');
  await addTeamMember(db, team, cast.teamMember.id);
  const tools = await createCollection(db, { team }, { name: 'Tools' });
  const link = await createLink(db, tools, {
    name: 'Robots away',
    url: 'https://norobots.example',
  });
  await db
    .update(linkChecks)
    .set({ state: 'broken', failures: 2, status: 403, stateChangedAt: new Date(0) })
    .where(eq(linkChecks.linkId, link.id));
  return { team, link };
}

const dismiss = (linkId: string, who: Role | null) =>
  adminCall(app, 'POST', `/links/${linkId}/broken/dismissal`, who ? cast[who] : null);
const brokenIds = async (who: Role) =>
  (await adminCall(app, 'GET', '/links/broken', cast[who]))
    .json<{ items: { linkId: string }[] }>()
    .items.map((item) => item.linkId);
const checkOf = async (linkId: string) =>
  (await db.select().from(linkChecks).where(eq(linkChecks.linkId, linkId)))[0]!;

// POST /api/admin/links/{id}/broken/dismissal: a broken finding marked wrong.
describe('POST /api/admin/links/{id}/broken/dismissal', () => {
  it('requires authentication', async () => {
    const { link } = await brokenTeamLink();
    expect((await dismiss(link.id, null)).statusCode).toBe(401);
    expect((await checkOf(link.id)).dismissedUrl).toBeNull();
  });

  it("lets the team's editor mark it: no longer listed, audited, listed again once its address changes", async () => {
    const { link } = await brokenTeamLink();
    expect(await brokenIds('orgAdmin')).toContain(link.id);
    const answer = await dismiss(link.id, 'teamEditor');
    expect(answer.statusCode, answer.body).toBe(204);
    expect(await brokenIds('orgAdmin')).not.toContain(link.id);
    expect(await brokenIds('teamEditor')).not.toContain(link.id);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, link.id));
    expect(entry).toMatchObject({
      action: 'content.link-check-dismissed',
      actorId: cast.teamEditor.id,
      details: { space: 'team', url: 'https://norobots.example' },
    });
    // Marked again: nothing to mark.
    expect((await dismiss(link.id, 'orgAdmin')).statusCode).toBe(409);
    // A new address is checked afresh; when it is found broken, it is listed again.
    await db
      .update(links)
      .set({ url: 'https://norobots.example/new' })
      .where(eq(links.id, link.id));
    await db
      .update(linkChecks)
      .set({ state: 'broken', failures: 2 })
      .where(eq(linkChecks.linkId, link.id));
    expect(await brokenIds('orgAdmin')).toContain(link.id);
  });

  it('marks an administrator outside the team as acting as administrator', async () => {
    const { link } = await brokenTeamLink();
    expect((await dismiss(link.id, 'orgAdmin')).statusCode).toBe(204);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, link.id));
    expect(entry?.details).toMatchObject({ asAdministrator: true });
  });

  it.each([
    ['teamMember', 403],
    ['colleague', 403],
    ['outsider', 404],
  ] as [Role, number][])('refuses %s with %i and changes nothing', async (who, status) => {
    const { link } = await brokenTeamLink();
    const answer = await dismiss(link.id, who);
    expect(answer.statusCode, answer.body).toBe(status);
    expect((await checkOf(link.id)).dismissedUrl).toBeNull();
    expect(await db.select().from(auditLog).where(eq(auditLog.targetId, link.id))).toEqual([]);
  });

  it('answers 404 to an editor of another team, and changes nothing', async () => {
    const { link } = await brokenTeamLink();
    const other = await createTeam(db, cast.org.id);
    await addTeamMember(db, other, cast.colleague.id, 'editor');
    expect((await dismiss(link.id, 'colleague')).statusCode).toBe(404);
    expect((await checkOf(link.id)).dismissedUrl).toBeNull();
  });
});
