// The access layer of the administration calls (decision 0040), asked directly: who runs the
// whole organization, and who runs some of its teams.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { createTestServices } from '../../../test/app.ts';
import { addTeamMember, createTeam } from '../../../test/factories.ts';
import { createCast } from '../../../test/support/world.ts';
import { callerOf } from '../../../test/support/callers.ts';

const { services, db } = await createTestServices();
const { adminAccess } = services;
const cast = await createCast(db);

const ADMINS_ONLY = 'Only an administrator of the organization can do that.';
const RUNS_TEAM = 'Only an administrator or an editor of a team can do that.';

/** What a call that must be refused threw. */
async function refusal(call: () => unknown): Promise<AppError> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('the call was allowed');
}

describe('an administrator of the organization', () => {
  it('is the only one let through', async () => {
    expect(() => adminAccess.admin(callerOf(cast.orgAdmin))).not.toThrow();
    for (const person of [cast.owner, cast.teamEditor]) {
      const error = await refusal(() => adminAccess.admin(callerOf(person)));
      expect(error).toMatchObject({ statusCode: 403, message: ADMINS_ONLY });
    }
  });
});

describe('what a person runs', () => {
  it('is the whole organization for an administrator', async () => {
    expect(await adminAccess.steward(db, callerOf(cast.orgAdmin))).toEqual({
      admin: true,
      editorOf: [],
    });
  });

  it('is the teams an editor edits, and not those they are a plain member of', async () => {
    const second = await createTeam(db, cast.org.id);
    await addTeamMember(db, second, cast.teamEditor.id, 'editor');
    const stewardship = await adminAccess.steward(db, callerOf(cast.teamEditor));
    expect(stewardship.admin).toBe(false);
    expect([...stewardship.editorOf].sort()).toEqual([cast.team.id, second.id].sort());
  });

  it('refuses someone who runs nothing with 403', async () => {
    for (const person of [cast.teamMember, cast.colleague]) {
      const error = await refusal(() => adminAccess.steward(db, callerOf(person)));
      expect(error).toMatchObject({ statusCode: 403, message: RUNS_TEAM });
    }
  });
});
