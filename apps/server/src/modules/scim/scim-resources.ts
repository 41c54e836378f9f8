// A person as a SCIM User and a team as a SCIM Group, both ways: what the database holds
// becomes the resource a client reads, and what a client sends becomes what the database
// holds, checked with the rules of the console (decision 0084).
import { createHash } from 'node:crypto';
import { LIMITS } from '@signpost/contract';
import { cleanName } from '../../lib/names.ts';
import { AppError } from '../../lib/errors.ts';
import { invalidValue, isObject, SCIM_LIMITS, scimBoolean, URN } from './scim-protocol.ts';

export interface ScimUserRow {
  id: string;
  name: string;
  email: string;
  status: 'active' | 'disabled' | 'invited';
  scimUserName: string | null;
  externalId: string | null;
  attributes: Record<string, unknown> | null;
  /** SCIM disabled the person (and so may enable them again). */
  scimDisabled: boolean;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export interface ScimGroupRow {
  id: string;
  name: string;
  externalId: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  /** The members SCIM made, or null when the client asked to leave them out. */
  members: { id: string; name: string }[] | null;
}

/** What a User resource sent asks the database to hold. */
export interface UserInput {
  userName: string;
  email: string;
  name: string;
  /** Absent: leave the person as they are (a PUT without `active` suspends nobody). */
  active: boolean | undefined;
  externalId: string | null;
  attributes: Record<string, unknown>;
}

export interface GroupInput {
  name: string;
  externalId: string | null;
  /** Absent: leave the members as they are. */
  members: string[] | undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Attributes of a User that have a column, or that nobody may set; all others are kept as sent. */
const USER_COLUMNS = ['schemas', 'id', 'externalid', 'username', 'displayname', 'active', 'meta'];
/** Never stored: a password is not Signpost's to keep (single sign-on), groups are read-only. */
const USER_DROPPED = ['password', 'groups'];

const iso = (value: Date | string) => new Date(value).toISOString();

/** The attribute of an object named case-insensitively (SCIM attribute names are). */
function attribute(resource: Record<string, unknown>, name: string): unknown {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(resource)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** A weak ETag of a resource's content (its `meta.version`): it changes when anything does. */
function versionOf(resource: Record<string, unknown>): string {
  const hash = createHash('sha256').update(JSON.stringify(resource)).digest('base64url');
  return `W/"${hash.slice(0, 22)}"`;
}

function withMeta(
  resource: Record<string, unknown>,
  type: 'User' | 'Group',
  row: { id: string; createdAt: Date | string; updatedAt: Date | string },
  base: string,
) {
  return {
    ...resource,
    meta: {
      resourceType: type,
      created: iso(row.createdAt),
      lastModified: iso(row.updatedAt),
      location: `${base}/${type}s/${row.id}`,
      version: versionOf(resource),
    },
  };
}

/** The index of the e-mail that is the person's: the primary one, else the work one, else the first. */
function chosenEmail(emails: Record<string, unknown>[]): number {
  const primary = emails.findIndex((e) => attribute(e, 'primary') === true);
  if (primary >= 0) return primary;
  const work = emails.findIndex((e) => String(attribute(e, 'type') ?? '').toLowerCase() === 'work');
  return work >= 0 ? work : 0;
}

function emailsOf(sent: unknown, email: string) {
  if (!Array.isArray(sent) || sent.length === 0 || !sent.every(isObject)) {
    return [{ value: email, type: 'work', primary: true }];
  }
  const emails = sent.map((e) => ({ ...e }));
  const index = chosenEmail(emails);
  const chosen = emails[index]!;
  for (const key of Object.keys(chosen)) if (key.toLowerCase() === 'value') delete chosen[key];
  chosen.value = email;
  return emails;
}

/** A person as a SCIM User. */
export function userResource(row: ScimUserRow, base: string): Record<string, unknown> {
  const kept = { ...(row.attributes ?? {}) };
  const emails = emailsOf(kept.emails, row.email);
  delete kept.emails;
  const resource: Record<string, unknown> = {
    schemas: [URN.user, ...(isObject(kept[URN.enterpriseUser]) ? [URN.enterpriseUser] : [])],
    id: row.id,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    userName: row.scimUserName ?? row.email,
    ...kept,
    displayName: row.name,
    emails,
    active: row.status !== 'disabled',
  };
  return withMeta(resource, 'User', row, base);
}

/** A team as a SCIM Group. */
export function groupResource(row: ScimGroupRow, base: string): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    schemas: [URN.group],
    id: row.id,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    displayName: row.name,
    ...(row.members
      ? {
          members: row.members.map((m) => ({
            value: m.id,
            display: m.name,
            $ref: `${base}/Users/${m.id}`,
          })),
        }
      : {}),
  };
  return withMeta(resource, 'Group', row, base);
}

function optionalString(value: unknown, name: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidValue(`"${name}" must be a string.`);
  const trimmed = value.trim();
  if (trimmed.length > max) throw invalidValue(`"${name}" is longer than ${max} characters.`);
  return trimmed === '' ? null : trimmed;
}

/** A name the console would take, or `invalidValue` in the console's words. */
function personName(value: string, attributeName: string): string {
  let name: string;
  try {
    name = cleanName(value, 'name');
  } catch (error) {
    if (error instanceof AppError) throw invalidValue(`"${attributeName}": ${error.message}`);
    throw error;
  }
  if (name.length > LIMITS.name) {
    throw invalidValue(`"${attributeName}" is longer than ${LIMITS.name} characters.`);
  }
  return name;
}

/** What a whole User resource (POST, PUT, or a PATCH's result) asks to hold. */
export function userInput(body: unknown): UserInput {
  if (!isObject(body)) throw invalidValue('The body must be a SCIM User object.');
  const userName = optionalString(attribute(body, 'userName'), 'userName', LIMITS.email);
  if (!userName) throw invalidValue('"userName" is required.');

  const emails = attribute(body, 'emails');
  if (emails !== undefined && emails !== null) {
    if (!Array.isArray(emails) || !emails.every(isObject)) {
      throw invalidValue('"emails" must be a list of objects with a "value".');
    }
    if (emails.length > 20) throw invalidValue('"emails" holds more than 20 addresses.');
  }
  const listed = Array.isArray(emails) && emails.length > 0 ? emails[chosenEmail(emails)] : null;
  const sentEmail = listed
    ? optionalString(attribute(listed, 'value'), 'emails.value', LIMITS.email)
    : null;
  const email = sentEmail ?? (EMAIL.test(userName) ? userName : null);
  if (!email || !EMAIL.test(email)) {
    throw invalidValue(
      'A person needs an e-mail address: send "emails" with a work address, or a "userName" that is one.',
    );
  }

  const displayName = optionalString(
    attribute(body, 'displayName'),
    'displayName',
    10 * LIMITS.name,
  );
  const nameObject = attribute(body, 'name');
  if (nameObject !== undefined && nameObject !== null && !isObject(nameObject)) {
    throw invalidValue('"name" must be an object such as {"givenName": …, "familyName": …}.');
  }
  const formatted = isObject(nameObject)
    ? optionalString(attribute(nameObject, 'formatted'), 'name.formatted', 10 * LIMITS.name)
    : null;
  const parts = isObject(nameObject)
    ? [attribute(nameObject, 'givenName'), attribute(nameObject, 'familyName')]
        .map((part, i) =>
          optionalString(part, i === 0 ? 'name.givenName' : 'name.familyName', LIMITS.name),
        )
        .filter((part): part is string => part !== null)
        .join(' ')
    : '';
  const name = personName(
    displayName ?? formatted ?? (parts || userName),
    displayName ? 'displayName' : formatted ? 'name.formatted' : parts ? 'name' : 'userName',
  );

  const activeValue = attribute(body, 'active');
  const active =
    activeValue === undefined || activeValue === null
      ? undefined
      : scimBoolean(activeValue, 'active');

  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const lowered = key.toLowerCase();
    if (USER_COLUMNS.includes(lowered) || USER_DROPPED.includes(lowered)) continue;
    attributes[key] = value;
  }
  if (Buffer.byteLength(JSON.stringify(attributes)) > SCIM_LIMITS.attributesBytes) {
    throw invalidValue(
      `The attributes besides userName, displayName, emails and active take more than ${SCIM_LIMITS.attributesBytes / 1024} KB.`,
    );
  }
  return {
    userName,
    email,
    name,
    active,
    externalId: optionalString(attribute(body, 'externalId'), 'externalId', LIMITS.email),
    attributes,
  };
}

/** What a whole Group resource (POST, PUT, or a PATCH's result) asks to hold. */
export function groupInput(body: unknown): GroupInput {
  if (!isObject(body)) throw invalidValue('The body must be a SCIM Group object.');
  const displayName = optionalString(
    attribute(body, 'displayName'),
    'displayName',
    10 * LIMITS.name,
  );
  if (!displayName) throw invalidValue('"displayName" is required.');
  const members = attribute(body, 'members');
  let ids: string[] | undefined;
  if (members !== undefined && members !== null) {
    if (!Array.isArray(members)) throw invalidValue('"members" must be a list of {"value": id}.');
    if (members.length > SCIM_LIMITS.members) {
      throw invalidValue(`A group takes at most ${SCIM_LIMITS.members} members in one request.`);
    }
    ids = [];
    for (const member of members) {
      const value = isObject(member) ? attribute(member, 'value') : undefined;
      if (typeof value !== 'string' || value.trim() === '') {
        throw invalidValue('Each member is {"value": the id of a User}.');
      }
      ids.push(value.trim());
    }
    ids = [...new Set(ids)];
  }
  return {
    name: personName(displayName, 'displayName'),
    externalId: optionalString(attribute(body, 'externalId'), 'externalId', LIMITS.email),
    members: ids,
  };
}

/** A resource with only the attributes asked for (`attributes`) or without some (`excludedAttributes`). */
export function projected(
  resource: Record<string, unknown>,
  attributes: string[] | null,
  excluded: string[] | null,
): Record<string, unknown> {
  const pathOf = (name: string) => {
    let path = name.trim();
    for (const urn of [URN.user, URN.group]) {
      if (path.toLowerCase().startsWith(`${urn.toLowerCase()}:`)) path = path.slice(urn.length + 1);
    }
    // An extension's attribute: its URN is the key, what follows the last colon the sub-attribute.
    if (path.toLowerCase().startsWith('urn:')) {
      const colon = path.lastIndexOf(':');
      return [path.slice(0, colon), path.slice(colon + 1)];
    }
    return path.split('.');
  };
  const keyOf = (object: Record<string, unknown>, name: string) =>
    Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase());
  if (attributes && attributes.length > 0) {
    const result: Record<string, unknown> = { schemas: resource.schemas, id: resource.id };
    for (const name of attributes) {
      const [top, sub] = pathOf(name);
      const key = keyOf(resource, top ?? '');
      if (!key) continue;
      const value = resource[key];
      if (sub === undefined || !isObject(value)) {
        result[key] = value;
      } else {
        const subKey = keyOf(value, sub);
        if (subKey) {
          result[key] = {
            ...(isObject(result[key]) ? (result[key] as object) : {}),
            [subKey]: value[subKey],
          };
        }
      }
    }
    return result;
  }
  if (excluded && excluded.length > 0) {
    const result: Record<string, unknown> = { ...resource };
    for (const name of excluded) {
      const [top, sub] = pathOf(name);
      const key = keyOf(result, top ?? '');
      if (!key || key === 'id' || key === 'schemas') continue;
      const value = result[key];
      if (sub === undefined) delete result[key];
      else if (isObject(value)) {
        const subKey = keyOf(value, sub);
        if (subKey) {
          const copy = { ...value };
          delete copy[subKey];
          result[key] = copy;
        }
      }
    }
    return result;
  }
  return resource;
}
