import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { linkChecks } from '../../db/schema/index.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  createCollection,
  createLink,
  createOrganization,
  createTeam,
  createUser,
} from '../../../test/factories.ts';
import { callerOf } from '../../../test/support/callers.ts';

const { services, db } = await createTestServices();
const org = await createOrganization(db);
const admin = await createUser(db, org.id, { role: 'admin' });
const editor = await createUser(db, org.id);
const team = await createTeam(db, org.id);
await addTeamMember(db, team, editor.id, 'editor');
const tools = await createCollection(db, { team }, { name: 'Tools' });

async function brokenLink() {
  const link = await createLink(db, tools, { url: 'https://norobots.example' });
  await db
    .update(linkChecks)
    .set({ state: 'broken', failures: 2 })
    .where(eq(linkChecks.linkId, link.id));
  return link;
}

// The rules of marking a broken finding wrong, and of a team's space read by those who run it.
describe('a broken finding marked wrong', () => {
  it('holds for the address it was made for, and only while the link is broken', async () => {
    const link = await brokenLink();
    await services.linkHealth.dismissBroken(callerOf(editor), link.id);
    const [row] = await db.select().from(linkChecks).where(eq(linkChecks.linkId, link.id));
    expect(row).toMatchObject({ dismissedUrl: 'https://norobots.example', dismissedBy: editor.id });
    const listed = await services.linkHealth.broken(callerOf(admin));
    expect(listed.items.map((item) => item.linkId)).not.toContain(link.id);
    await expect(services.linkHealth.dismissBroken(callerOf(admin), link.id)).rejects.toMatchObject(
      { statusCode: 409 },
    );
  });

  it('is refused for a link that is not broken', async () => {
    const link = await createLink(db, tools);
    await expect(services.linkHealth.dismissBroken(callerOf(admin), link.id)).rejects.toMatchObject(
      { statusCode: 409 },
    );
  });
});

describe("a team's space for those who run it", () => {
  it('gives an administrator outside the team the flags of team-admin', async () => {
    const link = await createLink(db, tools, { name: 'Runbook' });
    const space = await services.menu.teamSpace(callerOf(admin), team.id);
    const collection = space.collections.find((c) => c.id === tools.id);
    expect(collection?.linkCan).toEqual({ edit: true, delete: true, move: true, favorite: false });
    expect(collection?.can.suggest).toBe(false);
    expect(collection?.items.map((item) => item.id)).toContain(link.id);
  });

  it("gives the team's editor their own flags", async () => {
    const space = await services.menu.teamSpace(callerOf(editor), team.id);
    expect(space.collections.find((c) => c.id === tools.id)?.can.suggest).toBe(true);
  });
});
