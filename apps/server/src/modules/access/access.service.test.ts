// The access layer asked directly (decision 0008): every id is authorized on its own; what
// the caller cannot see is 404, as an unknown id; what they see but may not change is 403;
// team and organization content never leaves its space (409).
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { createTestServices } from '../../../test/app.ts';
import { createCast, createWorld, type Place, type Role } from '../../../test/support/world.ts';
import type { Relation } from './permissions.ts';
import { callerOf } from '../../../test/support/callers.ts';

const { services, db } = await createTestServices();
const { access } = services;
const cast = await createCast(db);
const { spaces, links } = await createWorld(db, cast);

const as = (role: Role) => callerOf(cast[role]);

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

const OWNER_ONLY = 'Only the person who owns this collection can do that.';
const READ_ONLY =
  'Only the editors of this team or an administrator can change it; suggest a link instead.';
const ORGANIZATION_READ_ONLY =
  'Only an administrator can change the organization space; suggest a link instead.';
const OTHER_SPACE =
  'Team and organization content stays in its own space: move it only between collections of that space.';

describe('a collection', () => {
  const relations: [Role, Place, Relation | 404][] = [
    ['owner', 'own', 'owner'],
    ['owner', 'root', 'owner'],
    ['owner', 'shared', 'owner'],
    ['member', 'shared', 'share-member'],
    ['member', 'sharedSub', 'share-member'],
    ['member', 'own', 404],
    ['colleague', 'shared', 404],
    ['owner', 'colleagueRoot', 404],
    ['owner', 'team', 'team-member'],
    ['teamEditor', 'teamSub', 'team-editor'],
    ['orgAdmin', 'team', 'team-admin'],
    ['owner', 'otherTeam', 404],
    ['orgAdmin', 'otherTeam', 'team-admin'],
    ['colleague', 'organization', 'org-member'],
    ['orgAdmin', 'organization', 'org-admin'],
    ['owner', 'otherOrganization', 404],
    ['outsider', 'own', 404],
    ['owner', 'unknown', 404],
  ];
  it.each(relations)('%s sees %s as: %s', async (role, place, relation) => {
    const id = spaces[place].id;
    if (relation === 404) {
      const error = await refusal(() => access.collection(db, as(role), id));
      expect(error).toMatchObject({ statusCode: 404, message: `Collection ${id} was not found` });
    } else {
      expect(await access.collection(db, as(role), id)).toMatchObject({
        collection: { id },
        relation,
      });
    }
  });

  it('tells its space and what the person may do with it', async () => {
    const root = await access.collection(db, as('owner'), spaces.root.id);
    expect(root.space).toBe('personal');
    expect(root.can).toMatchObject({ edit: true, delete: false, move: false, share: false });
    const top = await access.collection(db, as('member'), spaces.shared.id);
    const inside = await access.collection(db, as('member'), spaces.sharedSub.id);
    expect([top.can.leave, inside.can.leave]).toEqual([true, false]);
    expect(inside.collection.shareCollectionId).toBe(spaces.shared.id);
    const team = await access.collection(db, as('teamMember'), spaces.team.id);
    expect(team).toMatchObject({ space: 'team', can: { edit: false, suggest: true } });
  });

  it('names what was not found as the caller asked for it', async () => {
    const id = newId();
    const error = await refusal(() =>
      access.contributable(db, as('owner'), id, 'Target collection'),
    );
    expect(error.message).toBe(`Target collection ${id} was not found`);
  });

  const refused: [Role, Place, 'edit' | 'addLink' | 'addCollection' | 'delete', string][] = [
    ['member', 'sharedSub', 'addCollection', OWNER_ONLY],
    ['owner', 'root', 'delete', OWNER_ONLY],
    ['teamMember', 'team', 'addLink', READ_ONLY],
    ['owner', 'team', 'edit', READ_ONLY],
    ['teamEditor', 'organization', 'edit', ORGANIZATION_READ_ONLY],
  ];
  it.each(refused)('refuses %s to %s (%s) with 403', async (role, place, flag, message) => {
    const error = await refusal(() => access.allowed(db, as(role), spaces[place].id, flag));
    expect(error).toMatchObject({ statusCode: 403, message });
  });

  it('lets the people who run a space change it, and share members add links to it', async () => {
    expect(await access.allowed(db, as('teamEditor'), spaces.team.id, 'edit')).toMatchObject({
      relation: 'team-editor',
    });
    expect(await access.allowed(db, as('orgAdmin'), spaces.otherTeam.id, 'delete')).toMatchObject({
      relation: 'team-admin',
    });
    expect(await access.contributable(db, as('member'), spaces.sharedSub.id)).toMatchObject({
      relation: 'share-member',
    });
  });

  it('is owned only by its owner, even for the people who run a space', async () => {
    expect(await access.owned(db, as('owner'), spaces.own.id)).toMatchObject({
      relation: 'owner',
    });
    const editor = await refusal(() => access.owned(db, as('teamEditor'), spaces.team.id));
    expect(editor).toMatchObject({ statusCode: 403, message: READ_ONLY });
    const member = await refusal(() => access.owned(db, as('member'), spaces.shared.id));
    expect(member).toMatchObject({ statusCode: 403, message: OWNER_ONLY });
  });

  it('is held for a transaction while it exists, and 404 when it does not', async () => {
    await expect(db.transaction((tx) => access.hold(tx, spaces.own.id))).resolves.toBeUndefined();
    const gone = newId();
    const error = await refusal(() => db.transaction((tx) => access.hold(tx, gone)));
    expect(error).toMatchObject({ statusCode: 404, message: `Collection ${gone} was not found` });
  });
});

describe('a link', () => {
  it('is found in a collection the person sees, and 404 naming the link otherwise', async () => {
    expect(await access.link(db, as('teamMember'), links.team.id)).toMatchObject({
      link: { linkId: links.team.id, createdBy: cast.teamEditor.id },
      in: { relation: 'team-member', space: 'team' },
    });
    for (const [role, id] of [
      ['owner', links.colleagues.id],
      ['owner', links.otherOrganization.id],
      ['outsider', links.own.id],
      ['owner', links.unknown.id],
    ] as const) {
      const error = await refusal(() => access.link(db, as(role), id));
      expect(error).toMatchObject({ statusCode: 404, message: `Link ${id} was not found` });
    }
  });

  const changeable: [Role, keyof typeof links, 'ok' | string][] = [
    ['owner', 'ownUnattributed', 'ok'],
    ['owner', 'memberInSharedSub', 'ok'],
    ['member', 'memberInShare', 'ok'],
    ['orgAdmin', 'team', 'ok'],
    ['teamEditor', 'team', 'ok'],
    [
      'member',
      'ownerInShare',
      'Only the person who added this link, or who owns the collection, can.',
    ],
    [
      'member',
      'formerMemberInShare',
      'Only the person who added this link, or who owns the collection, can.',
    ],
    ['teamMember', 'team', READ_ONLY],
    ['owner', 'organization', ORGANIZATION_READ_ONLY],
  ];
  it.each(changeable)('%s changing a link (%s): %s', async (role, kind, outcome) => {
    const id = links[kind].id;
    if (outcome === 'ok') {
      expect(await access.changeableLink(db, as(role), id)).toMatchObject({ link: { linkId: id } });
    } else {
      const error = await refusal(() => access.changeableLink(db, as(role), id));
      expect(error).toMatchObject({ statusCode: 403, message: outcome });
    }
  });
});

describe('a space whose top level takes collections', () => {
  const ids = {
    team: cast.team.id,
    otherTeam: cast.otherTeam.id,
    organization: cast.org.id,
    otherOrganization: cast.otherOrg.id,
    unknown: newId(),
  };
  const cells: [Role, keyof typeof ids, 'team' | 'organization' | 403 | 404][] = [
    ['teamEditor', 'team', 'team'],
    ['orgAdmin', 'team', 'team'],
    ['orgAdmin', 'otherTeam', 'team'],
    ['orgAdmin', 'organization', 'organization'],
    ['teamMember', 'team', 403],
    ['teamEditor', 'organization', 403],
    ['teamEditor', 'otherTeam', 404],
    ['outsider', 'team', 404],
    ['owner', 'otherOrganization', 404],
    ['orgAdmin', 'unknown', 404],
  ];
  it.each(cells)('%s adding to the top of %s: %s', async (role, space, outcome) => {
    const id = ids[space];
    if (outcome === 403 || outcome === 404) {
      const error = await refusal(() => access.space(db, as(role), id));
      expect(error).toMatchObject(
        outcome === 404
          ? { statusCode: 404, message: `Space ${id} was not found` }
          : { statusCode: 403, message: space === 'team' ? READ_ONLY : ORGANIZATION_READ_ONLY },
      );
    } else {
      expect(await access.space(db, as(role), id)).toMatchObject({ type: outcome, id });
    }
  });
});

describe('where content may go', () => {
  it('keeps team and organization content in its own space (409)', async () => {
    const at = (role: Role, place: Place) => access.collection(db, as(role), spaces[place].id);
    const team = await at('orgAdmin', 'team');
    expect(() => access.sameSpace(team, team)).not.toThrow();
    for (const other of [await at('orgAdmin', 'organization'), await at('orgAdmin', 'otherTeam')]) {
      const error = await refusal(() => access.sameSpace(team, other));
      expect(error).toMatchObject({ statusCode: 409, message: OTHER_SPACE });
    }
    // Personal content moves between any personal collections the person may add to.
    const [own, sharedSub] = [await at('owner', 'own'), await at('owner', 'sharedSub')];
    expect(() => access.sameSpace(own, sharedSub)).not.toThrow();
  });

  it('counts the levels above a collection', async () => {
    const depths: [Place, number][] = [
      ['root', 0],
      ['own', 1],
      ['sharedSub', 2],
      ['team', 0],
      ['teamSub', 1],
    ];
    for (const [place, depth] of depths) {
      expect(await access.depthOf(db, spaces[place].id), place).toBe(depth);
    }
  });

  it('knows a collection and its ancestors from the rest', async () => {
    const cases: [Place, Place, boolean][] = [
      ['own', 'own', true],
      ['shared', 'sharedSub', true],
      ['root', 'sharedSub', true],
      ['sharedSub', 'shared', false],
      ['own', 'sharedSub', false],
    ];
    for (const [ancestor, place, expected] of cases) {
      expect(
        await access.isSelfOrAncestor(db, spaces[ancestor].id, spaces[place].id),
        `${ancestor} above ${place}`,
      ).toBe(expected);
    }
  });
});
