// SCIM 2.0 provisioning (decision 0084): the identity system's tokens, and people and teams
// as its Users and Groups. Every write runs in one transaction through the rules the console
// uses (the last administrator, disabling ends sessions), audited with the token that did it.
import { createHash, randomBytes } from 'node:crypto';
import { SCIM_TOKEN_LIMITS, type ScimToken } from '@signpost/contract';
import { sql, type SQL } from 'drizzle-orm';
import { scimPatch, type ScimPatchOperation, type ScimResource } from 'scim-patch';
import type { Database, Transaction } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { TOUCH_EVERY_MS, type AuthContext } from '../../lib/auth-context.ts';
import { conflict, notFound as appNotFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { assertRecentlyAuthenticated } from '../../lib/reauthentication.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';
import type { AdminAccess } from '../access/admin-access.ts';
import { auditOf, type AuditService } from '../audit/audit.service.ts';
import {
  scimActor,
  type PeopleActor,
  type PeopleRules,
  type ScimTokenRef,
} from '../people/people.rules.ts';
import { filterCondition, type FilterAttributes } from './scim-filter.ts';
import {
  invalidSyntax,
  invalidValue,
  isObject,
  notFound,
  SCIM_LIMITS,
  ScimProblem,
  uniqueness,
  URN,
} from './scim-protocol.ts';
import {
  groupInput,
  groupResource,
  projected,
  userInput,
  userResource,
  type GroupInput,
  type ScimUserRow,
  type UserInput,
} from './scim-resources.ts';
import type { ScimRepository, ScimTokenRow } from './scim.repository.ts';

/** The prefix of a SCIM token: secret scanners can spot it, and no other door takes it. */
export const SCIM_TOKEN_PREFIX = 'spscim_';
const SCIM_TOKENS_PER_ORGANIZATION = SCIM_TOKEN_LIMITS.perOrganization;

export const hashScimToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const isScimToken = (token: string) => token.startsWith(SCIM_TOKEN_PREFIX);

/** Who calls /scim/v2: a token of an organization. */
export interface ScimCaller {
  organizationId: string;
  token: ScimTokenRef;
}

/** The list parameters of RFC 7644 §3.4.2, as the query string gives them. */
export interface ScimListQuery {
  filter?: string;
  startIndex?: string;
  count?: string;
  attributes?: string;
  excludedAttributes?: string;
}

/** What a client sends that is checked against the current resource: If-Match, and where it is. */
export interface ScimWrite {
  ifMatch?: string | undefined;
  origin: AuditOrigin;
  /** The absolute address of /scim/v2, for `meta.location`. */
  base: string;
}

const USER_FILTER: FilterAttributes = {
  username: { kind: 'text', value: sql`lower(coalesce(u.scim_user_name, u.email))` },
  externalid: { kind: 'exact', value: sql`u.external_id` },
  id: { kind: 'exact', value: sql`u.id` },
  displayname: { kind: 'text', value: sql`lower(u.name)` },
  emails: { kind: 'text', value: sql`lower(u.email)` },
  'emails.value': { kind: 'text', value: sql`lower(u.email)` },
  // A person's address is their work one.
  'emails.type': { kind: 'text', value: sql`'work'::text` },
  active: { kind: 'boolean', value: sql`(u.status <> 'disabled')` },
  'meta.created': { kind: 'time', value: sql`u.created_at` },
  'meta.lastmodified': { kind: 'time', value: sql`u.updated_at` },
};

const scimMember = (condition: (value: SQL) => SQL) =>
  sql`EXISTS (SELECT 1 FROM team_memberships m
              WHERE m.team_id = t.id AND m.from_scim AND ${condition(sql`m.user_id`)})`;

const GROUP_FILTER: FilterAttributes = {
  displayname: { kind: 'text', value: sql`lower(t.name)` },
  externalid: { kind: 'exact', value: sql`t.external_id` },
  id: { kind: 'exact', value: sql`t.id` },
  members: { kind: 'exact', value: sql`NULL`, any: scimMember },
  'members.value': { kind: 'exact', value: sql`NULL`, any: scimMember },
  'meta.created': { kind: 'time', value: sql`t.created_at` },
  'meta.lastmodified': { kind: 'time', value: sql`t.updated_at` },
};

const names = (list: string | undefined) =>
  list
    ? list
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : null;

function page(query: ScimListQuery) {
  const whole = (text: string | undefined, name: string) => {
    if (text === undefined || text === '') return null;
    if (!/^-?\d{1,9}$/.test(text)) throw invalidValue(`"${name}" must be a whole number.`);
    return Number(text);
  };
  // RFC 7644 §3.4.2.4: a start below 1 is 1; a negative count is 0.
  const startIndex = Math.max(1, whole(query.startIndex, 'startIndex') ?? 1);
  const count = Math.min(
    Math.max(0, whole(query.count, 'count') ?? SCIM_LIMITS.page.default),
    SCIM_LIMITS.page.max,
  );
  return { startIndex, count };
}

/** 412 when the client's If-Match names another version than the resource's. */
function checkIfMatch(ifMatch: string | undefined, resource: Record<string, unknown>) {
  if (!ifMatch) return;
  const version = (resource.meta as { version: string }).version;
  const wanted = ifMatch.split(',').map((tag) => tag.trim());
  const bare = (tag: string) => tag.replace(/^W\//, '');
  if (wanted.includes('*') || wanted.some((tag) => bare(tag) === bare(version))) return;
  throw new ScimProblem(412, `The resource changed: it is at version ${version} now.`);
}

/** The operations of a PATCH request (RFC 7644 §3.5.2), checked before any is applied. */
function patchOperations(body: unknown): ScimPatchOperation[] {
  if (!isObject(body)) throw invalidSyntax('The body must be a PatchOp message.');
  const schemas = body.schemas;
  if (Array.isArray(schemas) && !schemas.includes(URN.patchOp)) {
    throw invalidSyntax(`A PATCH body names the schema ${URN.patchOp}.`);
  }
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0) {
    throw invalidSyntax('A PATCH body holds "Operations", a list of at least one operation.');
  }
  if (operations.length > SCIM_LIMITS.patchOperations) {
    throw invalidValue(`A PATCH holds at most ${SCIM_LIMITS.patchOperations} operations.`);
  }
  return operations.map((operation, index) => {
    if (!isObject(operation) || typeof operation.op !== 'string') {
      throw invalidSyntax(`Operation ${index + 1} has no "op".`);
    }
    const op = operation.op.toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw invalidSyntax(
        `Operation ${index + 1}: "op" is add, replace or remove, not "${operation.op}".`,
      );
    }
    if (operation.path !== undefined && typeof operation.path !== 'string') {
      throw new ScimProblem(400, `Operation ${index + 1}: "path" must be a string.`, 'invalidPath');
    }
    if (op === 'remove' && !operation.path) {
      throw new ScimProblem(400, `Operation ${index + 1}: a remove names its "path".`, 'noTarget');
    }
    if (op !== 'remove' && !('value' in operation)) {
      throw invalidValue(`Operation ${index + 1}: an ${op} carries a "value".`);
    }
    return { ...operation, op } as ScimPatchOperation;
  });
}

/** `members[value eq "…"]`, the filter path both providers remove a member by. */
const MEMBER_BY_VALUE = /^members\[\s*value\s+eq\s+"((?:[^"\\]|\\.)*)"\s*\]$/i;

/**
 * The members a removal names (`{"op":"remove","path":"members","value":[{"value":"…"}]}`, as
 * Microsoft Entra ID sends it, with `$ref` and `display` or not; or the filter path
 * `members[value eq "…"]`), or null for any other operation. A member who is not in the
 * group is already out: the removal of them changes nothing and is not an error.
 */
function membersRemoved(operation: ScimPatchOperation): string[] | null {
  const { op, path } = operation as { op: string; path?: string };
  if (op !== 'remove' || !path) return null;
  const filtered = MEMBER_BY_VALUE.exec(path.trim());
  if (filtered) return [JSON.parse(`"${filtered[1]}"`) as string];
  const value = (operation as { value?: unknown }).value;
  if (path.toLowerCase() !== 'members' || !Array.isArray(value)) return null;
  return value.map((member) => {
    const id = isObject(member) ? member.value : undefined;
    if (typeof id !== 'string')
      throw invalidValue('Each member removed is {"value": the id of a User}.');
    return id;
  });
}

/**
 * A resource with the operations applied in order, by a maintained implementation of RFC 7644
 * §3.5.2 (scim-patch); removals of members by value are applied here (`membersRemoved`).
 */
function patched(resource: Record<string, unknown>, operations: ScimPatchOperation[]) {
  let document = structuredClone(resource);
  for (const operation of operations) {
    const removed = membersRemoved(operation);
    if (removed) {
      const gone = new Set(removed);
      const members = Array.isArray(document.members) ? document.members : [];
      document.members = members.filter((m) => !(isObject(m) && gone.has(String(m.value))));
      continue;
    }
    try {
      document = scimPatch(document as unknown as ScimResource, [operation], {
        mutateDocument: true,
        treatMissingAsAdd: true,
      }) as unknown as Record<string, unknown>;
    } catch (error) {
      const detail = error instanceof Error ? error.message : 'The operation does not apply.';
      const code = (error as { scimCode?: string }).scimCode;
      const scimType =
        code === 'invalidPath' || code === 'noTarget' || code === 'invalidValue'
          ? code
          : 'invalidPath';
      throw new ScimProblem(400, detail, scimType);
    }
  }
  return document;
}

/** A unique index that refused a write answers as the check before it would have (409). */
function uniqueOnConflict(what: string) {
  return (error: unknown): never => {
    if (isUniqueViolation(error)) throw uniqueness(what);
    throw error;
  };
}

const toWire = (row: ScimTokenRow): ScimToken => ({
  id: row.id,
  name: row.name,
  hint: row.tokenHint,
  createdBy: row.createdByName,
  createdAt: new Date(row.createdAt).toISOString(),
  lastUsedAt: row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : null,
});

export interface ScimDeps {
  db: Database;
  scim: ScimRepository;
  rules: PeopleRules;
  audit: AuditService;
  adminAccess: AdminAccess;
}

export function createScimService({ db, scim: repo, rules, audit, adminAccess }: ScimDeps) {
  const actorOf = (caller: ScimCaller, origin: AuditOrigin): PeopleActor =>
    scimActor(caller.organizationId, caller.token, origin);

  async function lockedUser(tx: Transaction, caller: ScimCaller, id: string) {
    const row = await repo.findUser(tx, caller.organizationId, id, true);
    if (!row) throw notFound(`User ${id} not found.`);
    return row;
  }

  async function userOut(caller: ScimCaller, id: string, base: string) {
    const row = await repo.findUser(db, caller.organizationId, id);
    if (!row) throw notFound(`User ${id} not found.`);
    return userResource(row, base);
  }

  /**
   * Writes what a User resource asks of a person the transaction holds: their details, then
   * their status through the console's rules (SCIM enables again only whom it disabled).
   */
  async function writeUser(
    tx: Transaction,
    caller: ScimCaller,
    actor: PeopleActor,
    row: ScimUserRow,
    input: UserInput,
    action: 'person.created' | 'person.updated',
    note: Record<string, unknown> = {},
  ) {
    const owner = await repo.lockByUserName(tx, caller.organizationId, input.userName);
    if (owner && owner.id !== row.id) {
      throw uniqueness(`Another User has the userName "${input.userName}".`);
    }
    if (await rules.emailTaken(tx, input.email, row.id)) {
      throw uniqueness(`Someone else already has the e-mail address ${input.email}.`);
    }
    const scimUserName =
      input.userName.toLowerCase() === input.email.toLowerCase() ? null : input.userName;
    await repo.writeUser(tx, row.id, {
      name: input.name,
      email: input.email,
      scimUserName,
      externalId: input.externalId,
      attributes: input.attributes,
    });
    const before = {
      name: row.name,
      email: row.email,
      userName: row.scimUserName ?? row.email,
      externalId: row.externalId,
    };
    const after = {
      name: input.name,
      email: input.email,
      userName: input.userName,
      externalId: input.externalId,
    };
    const changed = Object.keys(after).filter(
      (key) => before[key as keyof typeof before] !== after[key as keyof typeof after],
    );
    if (action === 'person.created' || changed.length > 0 || Object.keys(note).length > 0) {
      const pick = (values: Record<string, unknown>) =>
        Object.fromEntries(changed.map((key) => [key, values[key]]));
      await audit.record(tx, {
        ...rules.context(actor),
        action,
        target: { type: 'person', id: row.id, label: input.email },
        ...(action === 'person.created'
          ? { after: { ...after, status: input.active === false ? 'disabled' : 'active' } }
          : { before: pick(before), after: pick(after) }),
        ...rules.detailsOf(actor, note),
      });
    }
    const [person] = await rules.lockPeople(tx, actor, [row.id]);
    if (!person) throw notFound(`User ${row.id} not found.`);
    if (input.active === false && person.status !== 'disabled') {
      await rules.setField(tx, actor, [person], 'status', 'disabled');
    } else if (input.active === true && person.status === 'disabled' && row.scimDisabled) {
      await rules.setField(tx, actor, [person], 'status', 'active');
    }
  }

  /** Members named by a group: people of the organization who are Users, else 400 naming one. */
  async function checkMembers(tx: Transaction, caller: ScimCaller, input: GroupInput) {
    if (!input.members || input.members.length === 0) return;
    const known = new Set(await repo.knownUsers(tx, caller.organizationId, input.members));
    const unknown = input.members.find((id) => !known.has(id));
    if (unknown) throw invalidValue(`Member "${unknown}" is not a User of this organization.`);
  }

  async function writeMembers(
    tx: Transaction,
    caller: ScimCaller,
    actor: PeopleActor,
    team: { id: string; name: string },
    members: string[] | undefined,
  ) {
    if (members === undefined) return;
    const { added, removed } = await repo.setScimMembers(
      tx,
      { id: team.id, organizationId: caller.organizationId },
      members,
    );
    if (added.length === 0 && removed.length === 0) return;
    await audit.record(tx, {
      ...rules.context(actor),
      action: 'team.members-synced',
      target: { type: 'team', id: team.id, label: team.name },
      ...rules.detailsOf(actor, { added, removed }),
    });
  }

  async function writeGroup(
    tx: Transaction,
    caller: ScimCaller,
    actor: PeopleActor,
    current: { id: string; name: string; externalId: string | null },
    input: GroupInput,
  ) {
    const owner = await repo.lockTeamByName(tx, caller.organizationId, input.name);
    if (owner && owner.id !== current.id) {
      throw uniqueness(`Another Group is named "${input.name}".`);
    }
    await checkMembers(tx, caller, input);
    if (current.name !== input.name || current.externalId !== input.externalId) {
      await repo.writeTeam(tx, current.id, { name: input.name, externalId: input.externalId });
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      if (current.name !== input.name) {
        before.name = current.name;
        after.name = input.name;
      }
      if (current.externalId !== input.externalId) {
        before.externalId = current.externalId;
        after.externalId = input.externalId;
      }
      await audit.record(tx, {
        ...rules.context(actor),
        action: 'team.updated',
        target: { type: 'team', id: current.id, label: input.name },
        before,
        after,
        ...rules.detailsOf(actor),
      });
    }
    await writeMembers(tx, caller, actor, { id: current.id, name: input.name }, input.members);
  }

  async function groupOut(caller: ScimCaller, id: string, base: string, withMembers = true) {
    const row = await repo.findGroup(db, caller.organizationId, id, withMembers);
    if (!row) throw notFound(`Group ${id} not found.`);
    return groupResource(row, base);
  }

  return {
    /** The organization and token behind a live SCIM token, or null. */
    async authenticate(token: string): Promise<ScimCaller | null> {
      if (!isScimToken(token)) return null;
      const record = await repo.findLiveToken(db, hashScimToken(token));
      if (!record) return null;
      if (!record.lastUsedAt || Date.now() - record.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
        await repo.touchToken(db, record.tokenId);
      }
      return {
        organizationId: record.organizationId,
        token: { id: record.tokenId, name: record.name },
      };
    },

    async listTokens(me: AuthContext) {
      adminAccess.admin(me);
      return { items: (await repo.listTokens(db, me.organizationId)).map(toWire) };
    },

    /** A new token, shown once: the organization's identity system provisions with it. */
    async createToken(me: AuthContext, origin: AuditOrigin, name: string) {
      adminAccess.admin(me);
      assertRecentlyAuthenticated(me, 'make a SCIM token');
      const token = `${SCIM_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await db.transaction(async (tx) => {
        // Counted under a lock of the organization's tokens: two creations at once cannot
        // pass the cap together.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtext(${`signpost:scim-tokens:${me.organizationId}`}))`,
        );
        if ((await repo.listTokens(tx, me.organizationId)).length >= SCIM_TOKENS_PER_ORGANIZATION) {
          throw conflict(
            `The organization has ${SCIM_TOKENS_PER_ORGANIZATION} SCIM tokens; revoke one to make another.`,
          );
        }
        const created = await repo.insertToken(tx, {
          id: newId(),
          organizationId: me.organizationId,
          name: name.trim() || 'SCIM token',
          tokenHash: hashScimToken(token),
          tokenHint: token.slice(0, SCIM_TOKEN_PREFIX.length + 4),
          createdBy: me.userId,
          createdByName: me.name,
        });
        await audit.record(tx, {
          ...auditOf(me, origin),
          action: 'scim-token.created',
          target: { type: 'scim-token', id: created.id, label: created.name },
          after: { name: created.name, hint: created.tokenHint },
        });
        return created;
      });
      return { token, scimToken: toWire(row) };
    },

    async revokeToken(me: AuthContext, origin: AuditOrigin, id: string) {
      adminAccess.admin(me);
      await db.transaction(async (tx) => {
        const revoked = await repo.revokeToken(tx, me.organizationId, id);
        if (!revoked) throw appNotFound('No such SCIM token.');
        await audit.record(tx, {
          ...auditOf(me, origin),
          action: 'scim-token.revoked',
          target: { type: 'scim-token', id, label: revoked.name },
        });
      });
    },

    async listUsers(caller: ScimCaller, query: ScimListQuery, base: string) {
      const where = query.filter ? filterCondition(query.filter, USER_FILTER) : sql`true`;
      const { startIndex, count } = page(query);
      const total = await repo.countUsers(db, caller.organizationId, where);
      const rows =
        count > 0 && total >= startIndex
          ? await repo.listUsers(db, caller.organizationId, where, startIndex - 1, count)
          : [];
      const attributes = names(query.attributes);
      const excluded = names(query.excludedAttributes);
      return {
        schemas: [URN.listResponse],
        totalResults: total,
        startIndex,
        itemsPerPage: rows.length,
        Resources: rows.map((row) => projected(userResource(row, base), attributes, excluded)),
      };
    },

    async getUser(caller: ScimCaller, id: string, query: ScimListQuery, base: string) {
      return projected(
        await userOut(caller, id, base),
        names(query.attributes),
        names(query.excludedAttributes),
      );
    },

    /**
     * A new User. A person the console made who answers to its userName or e-mail address,
     * and one SCIM deleted, become the User instead of a second person (decision 0084).
     */
    async createUser(caller: ScimCaller, body: unknown, write: ScimWrite) {
      const input = userInput(body);
      const actor = actorOf(caller, write.origin);
      const id = await db
        .transaction(async (tx) => {
          const named = await repo.lockByUserName(tx, caller.organizationId, input.userName);
          const match =
            named ?? (await repo.lockUnmanagedByEmail(tx, caller.organizationId, input.email));
          if (match && !match.deleted && match.managed) {
            throw uniqueness(`A User with the userName "${input.userName}" exists already.`);
          }
          if (match) {
            await writeUser(tx, caller, actor, match, input, 'person.updated', {
              scim: match.deleted ? 'provisioned again' : 'linked to the identity system',
            });
            return match.id;
          }
          if (await rules.emailTaken(tx, input.email)) {
            throw uniqueness(`Someone else already has the e-mail address ${input.email}.`);
          }
          const created = await rules.insertPerson(tx, {
            organizationId: caller.organizationId,
            name: input.name,
            email: input.email,
            role: 'member',
            status: 'active',
            passwordHash: null,
          });
          const row = await lockedUser(tx, caller, created);
          await writeUser(tx, caller, actor, row, input, 'person.created');
          return created;
        })
        .catch(
          uniqueOnConflict(
            `A User with the userName "${input.userName}" or its e-mail address exists already.`,
          ),
        );
      return userOut(caller, id, write.base);
    },

    /** Replaces a User (PUT): what is not sent is not kept, but a missing `active` changes nothing. */
    async replaceUser(caller: ScimCaller, id: string, body: unknown, write: ScimWrite) {
      const input = userInput(body);
      await db
        .transaction(async (tx) => {
          const row = await lockedUser(tx, caller, id);
          checkIfMatch(write.ifMatch, userResource(row, write.base));
          await writeUser(tx, caller, actorOf(caller, write.origin), row, input, 'person.updated');
        })
        .catch(
          uniqueOnConflict(
            `Another User has the userName "${input.userName}" or its e-mail address.`,
          ),
        );
      return userOut(caller, id, write.base);
    },

    async patchUser(caller: ScimCaller, id: string, body: unknown, write: ScimWrite) {
      const operations = patchOperations(body);
      await db
        .transaction(async (tx) => {
          const row = await lockedUser(tx, caller, id);
          const current = userResource(row, write.base);
          checkIfMatch(write.ifMatch, current);
          const after = patched(current, operations);
          for (const attribute of ['id', 'meta']) {
            if (JSON.stringify(after[attribute]) !== JSON.stringify(current[attribute])) {
              throw new ScimProblem(400, `"${attribute}" cannot be changed.`, 'mutability');
            }
          }
          await writeUser(
            tx,
            caller,
            actorOf(caller, write.origin),
            row,
            userInput(after),
            'person.updated',
          );
        })
        .catch(uniqueOnConflict('Another User has this userName or e-mail address.'));
      return userOut(caller, id, write.base);
    },

    /**
     * Deletes a User: the person is disabled at once (sessions and tokens end) and is no
     * longer a SCIM resource; they stay, with their content, until an administrator deletes
     * them with the console's offboarding choice (decision 0042).
     */
    async deleteUser(caller: ScimCaller, id: string, write: ScimWrite) {
      const actor = actorOf(caller, write.origin);
      await db.transaction(async (tx) => {
        const row = await lockedUser(tx, caller, id);
        checkIfMatch(write.ifMatch, userResource(row, write.base));
        const [person] = await rules.lockPeople(tx, actor, [id]);
        if (!person) throw notFound(`User ${id} not found.`);
        if (person.status !== 'disabled') {
          await rules.setField(tx, actor, [person], 'status', 'disabled', { scimDeleted: true });
        } else {
          await audit.record(tx, {
            ...rules.context(actor),
            action: 'person.updated',
            target: rules.target(person),
            ...rules.detailsOf(actor, { scimDeleted: true }),
          });
        }
        await repo.markUserDeleted(tx, id);
      });
    },

    async listGroups(caller: ScimCaller, query: ScimListQuery, base: string) {
      const where = query.filter ? filterCondition(query.filter, GROUP_FILTER) : sql`true`;
      const { startIndex, count } = page(query);
      const attributes = names(query.attributes);
      const excluded = names(query.excludedAttributes);
      const withMembers = attributes
        ? attributes.some((name) => name.toLowerCase().split(':').pop()!.startsWith('members'))
        : !(excluded ?? []).some((name) => name.toLowerCase().split(':').pop() === 'members');
      const total = await repo.countGroups(db, caller.organizationId, where);
      const rows =
        count > 0 && total >= startIndex
          ? await repo.listGroups(
              db,
              caller.organizationId,
              where,
              startIndex - 1,
              count,
              withMembers,
            )
          : [];
      return {
        schemas: [URN.listResponse],
        totalResults: total,
        startIndex,
        itemsPerPage: rows.length,
        Resources: rows.map((row) => projected(groupResource(row, base), attributes, excluded)),
      };
    },

    async getGroup(caller: ScimCaller, id: string, query: ScimListQuery, base: string) {
      const excluded = names(query.excludedAttributes);
      const withMembers = !(excluded ?? []).some(
        (name) => name.toLowerCase().split(':').pop() === 'members',
      );
      return projected(
        await groupOut(caller, id, base, withMembers),
        names(query.attributes),
        excluded,
      );
    },

    /** A new Group is a new team; a team the console made with its name becomes the Group. */
    async createGroup(caller: ScimCaller, body: unknown, write: ScimWrite) {
      const input = groupInput(body);
      const actor = actorOf(caller, write.origin);
      const id = await db
        .transaction(async (tx) => {
          const named = await repo.lockTeamByName(tx, caller.organizationId, input.name);
          if (named && !named.deleted) {
            throw uniqueness(`A Group named "${input.name}" exists already.`);
          }
          if (named) {
            // A group SCIM deleted while its team held content: provisioned again.
            await repo.writeTeam(tx, named.id, { name: named.name, externalId: named.externalId });
            await writeGroup(tx, caller, actor, named, input);
            return named.id;
          }
          await checkMembers(tx, caller, input);
          const teamId = newId();
          await repo.insertTeam(tx, {
            id: teamId,
            organizationId: caller.organizationId,
            name: input.name,
            externalId: input.externalId,
          });
          await audit.record(tx, {
            ...rules.context(actor),
            action: 'team.created',
            target: { type: 'team', id: teamId, label: input.name },
            after: { name: input.name, externalId: input.externalId },
            ...rules.detailsOf(actor),
          });
          await writeMembers(tx, caller, actor, { id: teamId, name: input.name }, input.members);
          return teamId;
        })
        .catch(uniqueOnConflict(`A Group named "${input.name}" exists already.`));
      return groupOut(caller, id, write.base);
    },

    async replaceGroup(caller: ScimCaller, id: string, body: unknown, write: ScimWrite) {
      const input = groupInput(body);
      await db
        .transaction(async (tx) => {
          const row = await repo.findGroup(tx, caller.organizationId, id, true, true);
          if (!row) throw notFound(`Group ${id} not found.`);
          checkIfMatch(write.ifMatch, groupResource(row, write.base));
          // A PUT without members leaves none of SCIM's (RFC 7644 §3.5.1: it replaces).
          await writeGroup(tx, caller, actorOf(caller, write.origin), row, {
            ...input,
            members: input.members ?? [],
          });
        })
        .catch(uniqueOnConflict(`A Group named "${input.name}" exists already.`));
      return groupOut(caller, id, write.base);
    },

    async patchGroup(caller: ScimCaller, id: string, body: unknown, write: ScimWrite) {
      const operations = patchOperations(body);
      await db
        .transaction(async (tx) => {
          const row = await repo.findGroup(tx, caller.organizationId, id, true, true);
          if (!row) throw notFound(`Group ${id} not found.`);
          const current = groupResource(row, write.base);
          checkIfMatch(write.ifMatch, current);
          const after = patched(current, operations);
          if (after.id !== current.id) {
            throw new ScimProblem(400, '"id" cannot be changed.', 'mutability');
          }
          const input = groupInput(after);
          await writeGroup(tx, caller, actorOf(caller, write.origin), row, {
            ...input,
            members: input.members ?? [],
          });
        })
        .catch(uniqueOnConflict('Another Group has this displayName.'));
      return groupOut(caller, id, write.base);
    },

    /**
     * Deletes a Group: the team goes when it holds nothing a person saved and nobody joined
     * it otherwise than by SCIM; else it stays a team of the console, without SCIM's
     * members, and is no longer a Group.
     */
    async deleteGroup(caller: ScimCaller, id: string, write: ScimWrite) {
      const actor = actorOf(caller, write.origin);
      await db.transaction(async (tx) => {
        const row = await repo.findGroup(tx, caller.organizationId, id, true, true);
        if (!row) throw notFound(`Group ${id} not found.`);
        checkIfMatch(write.ifMatch, groupResource(row, write.base));
        const target = { type: 'team' as const, id, label: row.name };
        if (await repo.teamKeepsOthers(tx, id)) {
          await repo.retireTeam(tx, id);
          await audit.record(tx, {
            ...rules.context(actor),
            action: 'team.updated',
            target,
            ...rules.detailsOf(actor, {
              scimDeleted: true,
              kept: 'the team holds content or members added otherwise than by SCIM',
            }),
          });
        } else {
          await audit.record(tx, {
            ...rules.context(actor),
            action: 'team.deleted',
            target,
            before: { name: row.name },
            ...rules.detailsOf(actor),
          });
          await repo.deleteTeam(tx, id);
        }
      });
    },
  };
}
export type ScimService = ReturnType<typeof createScimService>;
