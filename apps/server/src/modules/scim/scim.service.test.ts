// SCIM against its service and real repositories (decision 0084): random PATCH requests,
// valid and not, thrown at a User and at a Group, with the stored state held to a model; and
// the token and team rules the replayed sequences do not reach.
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestServices } from '../../../test/app.ts';
import { createCollection, createOrganization, createUser } from '../../../test/factories.ts';
import { callerOf } from '../../../test/support/callers.ts';
import { teams, users } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import type { ScimCaller } from './scim.service.ts';
import { ScimProblem } from './scim-protocol.ts';

const { services, db } = await createTestServices();
const { scim } = services;

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const write = { origin: {}, base: 'https://portal.example.org/scim/v2' };

async function organization(): Promise<ScimCaller> {
  const org = await createOrganization(db);
  // An administrator, so that disabling a User never meets the last-administrator rule.
  await createUser(db, org.id, { role: 'admin', password: null });
  return { organizationId: org.id, token: { id: newId(), name: 'Model' } };
}

/** Runs a call; its ScimProblem's status and type, or null when it went through. */
async function outcome(call: () => Promise<unknown>) {
  try {
    await call();
    return null;
  } catch (error) {
    if (error instanceof ScimProblem) return { status: error.status, scimType: error.scimType };
    throw error;
  }
}

interface UserModel {
  userName: string;
  email: string;
  displayName: string;
  active: boolean;
  title: string | undefined;
}

type UserOp =
  | { kind: 'displayName'; value: string }
  | { kind: 'active'; value: boolean; asString: boolean }
  | { kind: 'title'; value: string | null }
  | { kind: 'email'; value: string }
  | { kind: 'noPathActive'; value: boolean }
  | { kind: 'bad'; body: unknown; scimType: string };

const word = fc.stringMatching(/^[a-z]{1,12}$/);

const userOps: fc.Arbitrary<UserOp> = fc.oneof(
  word.map((value) => ({ kind: 'displayName' as const, value: `Name ${value}` })),
  fc
    .record({ value: fc.boolean(), asString: fc.boolean() })
    .map((r) => ({ kind: 'active' as const, ...r })),
  fc.option(word, { nil: null }).map((value) => ({ kind: 'title' as const, value })),
  word.map((value) => ({ kind: 'email' as const, value: `${value}@model.example.org` })),
  fc.boolean().map((value) => ({ kind: 'noPathActive' as const, value })),
  fc.constantFrom<UserOp>(
    {
      kind: 'bad',
      body: { schemas: [PATCH], Operations: [{ op: 'move', path: 'title' }] },
      scimType: 'invalidSyntax',
    },
    {
      kind: 'bad',
      body: { schemas: [PATCH], Operations: [{ op: 'remove' }] },
      scimType: 'noTarget',
    },
    {
      kind: 'bad',
      body: {
        schemas: [PATCH],
        Operations: [{ op: 'replace', path: 'active', value: 'sometimes' }],
      },
      scimType: 'invalidValue',
    },
    {
      kind: 'bad',
      body: { schemas: [PATCH], Operations: [{ op: 'replace', path: 'id', value: 'other' }] },
      scimType: 'mutability',
    },
    {
      kind: 'bad',
      body: {
        schemas: [PATCH],
        Operations: [
          { op: 'replace', path: 'displayName', value: 'Half done' },
          { op: 'replace', path: 'emails[type eq "work"].value', value: 'not an address' },
        ],
      },
      scimType: 'invalidValue',
    },
  ),
);

function userPatch(op: Exclude<UserOp, { kind: 'bad' }>) {
  const operation =
    op.kind === 'displayName'
      ? { op: 'replace', path: 'displayName', value: op.value }
      : op.kind === 'active'
        ? {
            op: 'Replace',
            path: 'active',
            value: op.asString ? (op.value ? 'True' : 'False') : op.value,
          }
        : op.kind === 'title'
          ? op.value === null
            ? { op: 'remove', path: 'title' }
            : { op: 'add', path: 'title', value: op.value }
          : op.kind === 'email'
            ? { op: 'replace', path: 'emails[type eq "work"].value', value: op.value }
            : { op: 'replace', value: { active: op.value } };
  return { schemas: [PATCH], Operations: [operation] };
}

describe('PATCH of a User, against a model', () => {
  it('holds the stored person to the operations that went through, and refused ones change nothing', async () => {
    const caller = await organization();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(userOps, { minLength: 1, maxLength: 8 }), async (ops) => {
        run += 1;
        const userName = `model${run}-${newId().slice(0, 6).toLowerCase()}@model.example.org`;
        const created = await scim.createUser(
          caller,
          {
            userName,
            displayName: 'Start',
            emails: [{ value: userName, type: 'work', primary: true }],
          },
          write,
        );
        const id = created.id as string;
        const model: UserModel = {
          userName,
          email: userName,
          displayName: 'Start',
          active: true,
          title: undefined,
        };
        for (const op of ops) {
          const before = await db.select().from(users).where(eq(users.id, id));
          if (op.kind === 'bad') {
            expect(await outcome(() => scim.patchUser(caller, id, op.body, write))).toEqual({
              status: 400,
              scimType: op.scimType,
            });
            expect(await db.select().from(users).where(eq(users.id, id))).toEqual(before);
            continue;
          }
          const taken =
            op.kind === 'email' && op.value !== model.email
              ? (await db.select().from(users).where(eq(users.email, op.value))).length > 0
              : false;
          const result = await outcome(() => scim.patchUser(caller, id, userPatch(op), write));
          if (taken) {
            expect(result).toEqual({ status: 409, scimType: 'uniqueness' });
            expect(await db.select().from(users).where(eq(users.id, id))).toEqual(before);
            continue;
          }
          expect(result).toBeNull();
          if (op.kind === 'displayName') model.displayName = op.value;
          if (op.kind === 'active' || op.kind === 'noPathActive') model.active = op.value;
          if (op.kind === 'title') model.title = op.value ?? undefined;
          if (op.kind === 'email') model.email = op.value;
        }
        const stored = await scim.getUser(caller, id, {}, write.base);
        expect({
          userName: stored.userName,
          email: (stored.emails as { value: string }[])[0]!.value,
          displayName: stored.displayName,
          active: stored.active,
          title: stored.title,
        }).toEqual(model);
        const [row] = await db.select().from(users).where(eq(users.id, id));
        expect(row).toMatchObject({
          email: model.email,
          name: model.displayName,
          status: model.active ? 'active' : 'disabled',
        });
      }),
      { numRuns: 25 },
    );
  });
});

type GroupOp =
  | { kind: 'add'; who: number[] }
  | { kind: 'removeByFilter'; who: number }
  | { kind: 'removeByValues'; who: number[] }
  | { kind: 'replace'; who: number[] }
  | { kind: 'rename'; name: string }
  | { kind: 'unknownMember' };

describe('PATCH of a Group, against a model', () => {
  it("holds SCIM's members to the operations that went through; a refused one changes none", async () => {
    const caller = await organization();
    const people: string[] = [];
    for (let i = 0; i < 6; i++) {
      const made = await scim.createUser(
        caller,
        { userName: `member${i}-${newId().slice(0, 5)}@model.example.org` },
        write,
      );
      people.push(made.id as string);
    }
    const index = fc.integer({ min: 0, max: people.length - 1 });
    const some = fc.uniqueArray(index, { minLength: 1, maxLength: people.length });
    const groupOps: fc.Arbitrary<GroupOp> = fc.oneof(
      some.map((who) => ({ kind: 'add' as const, who })),
      index.map((who) => ({ kind: 'removeByFilter' as const, who })),
      some.map((who) => ({ kind: 'removeByValues' as const, who })),
      fc
        .uniqueArray(index, { maxLength: people.length })
        .map((who) => ({ kind: 'replace' as const, who })),
      word.map((name) => ({ kind: 'rename' as const, name: `Group ${name}` })),
      fc.constant({ kind: 'unknownMember' as const }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(groupOps, { minLength: 1, maxLength: 8 }), async (ops) => {
        run += 1;
        const name = `Model group ${run}`;
        const id = (await scim.createGroup(caller, { displayName: name }, write)).id as string;
        const model = { name, members: new Set<string>() };
        for (const op of ops) {
          const operation =
            op.kind === 'add'
              ? { op: 'add', path: 'members', value: op.who.map((i) => ({ value: people[i] })) }
              : op.kind === 'removeByFilter'
                ? { op: 'remove', path: `members[value eq "${people[op.who]}"]` }
                : op.kind === 'removeByValues'
                  ? {
                      op: 'Remove',
                      path: 'members',
                      value: op.who.map((i) => ({ value: people[i], $ref: null })),
                    }
                  : op.kind === 'replace'
                    ? {
                        op: 'replace',
                        path: 'members',
                        value: op.who.map((i) => ({ value: people[i] })),
                      }
                    : op.kind === 'rename'
                      ? { op: 'replace', value: { id, displayName: `${op.name} ${run}` } }
                      : {
                          op: 'add',
                          path: 'members',
                          value: [{ value: 'nobody-of-this-organization' }],
                        };
          const result = await outcome(() =>
            scim.patchGroup(caller, id, { schemas: [PATCH], Operations: [operation] }, write),
          );
          if (op.kind === 'unknownMember') {
            expect(result).toEqual({ status: 400, scimType: 'invalidValue' });
            continue;
          }
          expect(result).toBeNull();
          if (op.kind === 'add') for (const i of op.who) model.members.add(people[i]!);
          if (op.kind === 'removeByFilter') model.members.delete(people[op.who]!);
          if (op.kind === 'removeByValues')
            for (const i of op.who) model.members.delete(people[i]!);
          if (op.kind === 'replace') model.members = new Set(op.who.map((i) => people[i]!));
          if (op.kind === 'rename') model.name = `${op.name} ${run}`;
        }
        const stored = await scim.getGroup(caller, id, {}, write.base);
        expect({
          name: stored.displayName,
          members: ((stored.members ?? []) as { value: string }[]).map((m) => m.value).sort(),
        }).toEqual({ name: model.name, members: [...model.members].sort() });
      }),
      { numRuns: 25 },
    );
  });
});

describe('tokens and teams', () => {
  it('a revoked token authenticates nothing; a token of no live row is null', async () => {
    const org = await createOrganization(db);
    const admin = await createUser(db, org.id, { role: 'admin' });
    const me = { ...callerOf(admin), recentlyAuthenticated: true };
    const { token, scimToken } = await scim.createToken(me, {}, '  Entra  ');
    expect(scimToken.name).toBe('Entra');
    expect(await scim.authenticate(token)).toMatchObject({ organizationId: org.id });
    await scim.revokeToken(me, {}, scimToken.id);
    expect(await scim.authenticate(token)).toBeNull();
    expect(await scim.authenticate('spscim_unknown-but-well-formed')).toBeNull();
    expect(await scim.authenticate('spat_an-access-token')).toBeNull();
    await expect(scim.revokeToken(me, {}, scimToken.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('caps the live tokens of an organization', async () => {
    const org = await createOrganization(db);
    const admin = await createUser(db, org.id, { role: 'admin' });
    const me = { ...callerOf(admin), recentlyAuthenticated: true };
    for (let i = 0; i < 20; i++) await scim.createToken(me, {}, `Token ${i}`);
    await expect(scim.createToken(me, {}, 'One too many')).rejects.toMatchObject({
      statusCode: 409,
    });
    expect((await scim.listTokens(me)).items).toHaveLength(20);
  });

  it('a team that holds content outlives its group, and a new group of its name brings it back', async () => {
    const caller = await organization();
    const id = (await scim.createGroup(caller, { displayName: 'Handbook' }, write)).id as string;
    await createCollection(db, { team: { id, organizationId: caller.organizationId } });
    await scim.deleteGroup(caller, id, write);
    expect(await outcome(() => scim.getGroup(caller, id, {}, write.base))).toEqual({
      status: 404,
      scimType: null,
    });
    const [kept] = await db.select().from(teams).where(eq(teams.id, id));
    expect(kept!.scimDeletedAt).not.toBeNull();
    const again = await scim.createGroup(caller, { displayName: 'handbook' }, write);
    expect(again).toMatchObject({ id, displayName: 'handbook' });
  });
});
