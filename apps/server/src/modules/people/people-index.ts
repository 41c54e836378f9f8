import type { PersonRole, PersonRow, PersonStatus } from '@signpost/contract';
import type { PeopleCursor } from './people-list.query.ts';

/** One person as the directory holds them: the list's row, and what its search reads. */
export interface DirectoryPerson {
  id: string;
  name: string;
  email: string;
  role: PersonRole;
  status: PersonStatus;
  /** Milliseconds since 1970 (the list answers them in ISO 8601). */
  lastSignInAt: number | null;
  createdAt: number;
  hasPassword: boolean;
  hasSso: boolean;
  secondFactor: boolean;
  teamIds: string[];
  /** `lower(name)` as the database lowers it: the list's order. */
  sortName: string;
  /** The lowered name, a line break and the lowered e-mail: what a search matches. */
  searchText: string;
}

export interface DirectoryTeam {
  name: string;
  /** `lower(name)` as the database lowers it: the order of a row's team names. */
  sortName: string;
}

export interface IndexQuery {
  /** Lowered as the database lowers it, and trimmed; '' for none. */
  q: string;
  role?: PersonRole | undefined;
  status?: PersonStatus | undefined;
  team?: string | undefined;
  signIn?: 'password' | 'sso' | 'never' | undefined;
  cursor: PeopleCursor | null;
  /** How many people to return at most. */
  count: number;
}

/** Name order: the lowered name, then the id (code unit order, the same on every server). */
export function compareOrder(a: { sortName: string; id: string }, b: PeopleCursor): number {
  if (a.sortName !== b.name) return a.sortName < b.name ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** The three-character substrings of `text`, each once. */
export function trigramsOf(text: string): Set<string> {
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= text.length; i += 1) grams.add(text.slice(i, i + 3));
  return grams;
}

/** The lists a person is on: everyone, their facets, their teams, and their trigrams. */
function keysOf(person: DirectoryPerson): Set<string> {
  const keys = new Set<string>(['*', `role:${person.role}`, `status:${person.status}`]);
  if (person.hasPassword) keys.add('signIn:password');
  if (person.hasSso) keys.add('signIn:sso');
  if (person.lastSignInAt === null) keys.add('signIn:never');
  for (const team of person.teamIds) keys.add(`team:${team}`);
  for (const gram of trigramsOf(person.searchText)) keys.add(`gram:${gram}`);
  return keys;
}

/** A list of people (their slots) in name order, with room to grow. */
interface SlotList {
  slots: Int32Array;
  length: number;
}

const ROLES: readonly PersonRole[] = ['member', 'admin'];
const STATUSES: readonly PersonStatus[] = ['active', 'disabled', 'invited'];
// The bits of a person's flags: role (1), status (2), and three booleans.
const ADMIN = 1;
const STATUS_SHIFT = 1;
const STATUS_MASK = 3 << STATUS_SHIFT;
const HAS_PASSWORD = 8;
const HAS_SSO = 16;
const SECOND_FACTOR = 32;

/**
 * An organization's people in memory, for the console's list: every person once (in a
 * slot), and lists of slots in name order, one per key: everyone, each role, status, way of
 * signing in and team, and each three-character substring of name and e-mail. A page takes
 * the shortest list its filters and search allow, checks every condition on each person
 * from the cursor on, and stops when the page is full.
 *
 * People are kept by column (strings in arrays, times and flags in typed arrays) rather than
 * as one object each, and lists are typed arrays: 100,000 people take about 25 MB of heap
 * and 20 MB of typed arrays. Pure: the database side is in `people-directories.ts`.
 */
export class PeopleIndex {
  private ids: string[] = [];
  private names: string[] = [];
  private emails: string[] = [];
  private sortNames: string[] = [];
  private searchTexts: string[] = [];
  private createdAt = new Float64Array(0);
  /** NaN: never signed in. */
  private lastSignInAt = new Float64Array(0);
  private flags = new Uint8Array(0);
  private readonly teamsOf = new Map<number, string[]>();
  private readonly freeSlots: number[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly lists = new Map<string, SlotList>();
  private teams = new Map<string, DirectoryTeam>();

  get size(): number {
    return this.slotOf.size;
  }

  setTeams(teams: Map<string, DirectoryTeam>): void {
    this.teams = teams;
  }

  private ensureCapacity(slots: number): void {
    if (slots <= this.flags.length) return;
    const size = Math.max(slots, Math.ceil(this.flags.length * 1.25), 16);
    const grow = <T extends Float64Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.createdAt = grow(this.createdAt, new Float64Array(size));
    this.lastSignInAt = grow(this.lastSignInAt, new Float64Array(size));
    this.flags = grow(this.flags, new Uint8Array(size));
  }

  private store(slot: number, person: DirectoryPerson): void {
    this.ids[slot] = person.id;
    this.names[slot] = person.name;
    this.emails[slot] = person.email;
    this.sortNames[slot] = person.sortName;
    this.searchTexts[slot] = person.searchText;
    this.createdAt[slot] = person.createdAt;
    this.lastSignInAt[slot] = person.lastSignInAt ?? Number.NaN;
    this.flags[slot] =
      (person.role === 'admin' ? ADMIN : 0) |
      (Math.max(0, STATUSES.indexOf(person.status)) << STATUS_SHIFT) |
      (person.hasPassword ? HAS_PASSWORD : 0) |
      (person.hasSso ? HAS_SSO : 0) |
      (person.secondFactor ? SECOND_FACTOR : 0);
    if (person.teamIds.length > 0) this.teamsOf.set(slot, [...person.teamIds]);
    else this.teamsOf.delete(slot);
  }

  /** The person in a slot, as `put` takes them. */
  person(slot: number): DirectoryPerson {
    const flags = this.flags[slot]!;
    const last = this.lastSignInAt[slot]!;
    return {
      id: this.ids[slot]!,
      name: this.names[slot]!,
      email: this.emails[slot]!,
      role: ROLES[flags & ADMIN]!,
      status: STATUSES[(flags & STATUS_MASK) >> STATUS_SHIFT]!,
      lastSignInAt: Number.isNaN(last) ? null : last,
      createdAt: this.createdAt[slot]!,
      hasPassword: (flags & HAS_PASSWORD) !== 0,
      hasSso: (flags & HAS_SSO) !== 0,
      secondFactor: (flags & SECOND_FACTOR) !== 0,
      teamIds: this.teamsOf.get(slot) ?? [],
      sortName: this.sortNames[slot]!,
      searchText: this.searchTexts[slot]!,
    };
  }

  /**
   * Stores people of a first load, before any list exists (`listSteps` then lists them).
   * Each person is kept by column at once, so that no object per person outlives the part
   * it was read in.
   */
  stage(people: DirectoryPerson[]): void {
    const first = this.ids.length;
    this.ensureCapacity(first + people.length);
    for (let at = 0; at < people.length; at += 1) {
      const person = people[at]!;
      this.store(first + at, person);
      this.slotOf.set(person.id, first + at);
    }
  }

  /**
   * Makes the lists of the people staged, in steps of `chunk` people (the caller yields
   * between steps, so that a large organization does not hold up other calls). Two passes
   * (count each list, then fill it), so each list is allocated once at its size. Sorts
   * here, in this code's order (not the database collation's).
   */
  *listSteps(chunk = 5000): Generator<void> {
    const { sortNames, ids } = this;
    const order = Int32Array.from(ids.keys()).sort((a, b) => {
      const x = sortNames[a]!;
      const y = sortNames[b]!;
      if (x !== y) return x < y ? -1 : 1;
      return ids[a]! < ids[b]! ? -1 : ids[a] === ids[b] ? 0 : 1;
    });
    yield;
    const counts = new Map<string, number>();
    for (let at = 0; at < order.length; at += 1) {
      for (const key of keysOf(this.person(order[at]!))) {
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      if (at % chunk === chunk - 1) yield;
    }
    for (const [key, count] of counts) {
      this.lists.set(key, { slots: new Int32Array(count), length: 0 });
    }
    for (let at = 0; at < order.length; at += 1) {
      const slot = order[at]!;
      for (const key of keysOf(this.person(slot))) {
        const list = this.lists.get(key)!;
        list.slots[list.length++] = slot;
      }
      if (at % chunk === chunk - 1) yield;
    }
  }

  /** Loads everyone at once, into an empty index (`stage`, then every list step). */
  load(people: DirectoryPerson[]): void {
    this.stage(people);
    for (const _ of this.listSteps()) {
      // Every step at once.
    }
  }

  private comesAfter(slot: number, cursor: PeopleCursor, orEqual: boolean): boolean {
    const name = this.sortNames[slot]!;
    if (name !== cursor.name) return name > cursor.name;
    const id = this.ids[slot]!;
    return orEqual ? id >= cursor.id : id > cursor.id;
  }

  /** The first place in `list` whose person comes after `cursor` (or is it, `orEqual`). */
  private firstAfter(list: SlotList, cursor: PeopleCursor, orEqual = false): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.comesAfter(list.slots[middle]!, cursor, orEqual)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private insert(key: string, slot: number): void {
    let list = this.lists.get(key);
    if (!list) {
      list = { slots: new Int32Array(4), length: 0 };
      this.lists.set(key, list);
    }
    const at = this.firstAfter(list, { name: this.sortNames[slot]!, id: this.ids[slot]! });
    if (list.length === list.slots.length) {
      const grown = new Int32Array(Math.max(4, Math.ceil(list.slots.length * 1.25)));
      grown.set(list.slots);
      list.slots = grown;
    }
    list.slots.copyWithin(at + 1, at, list.length);
    list.slots[at] = slot;
    list.length += 1;
  }

  /** Takes `slot` off a list; `order` is where its person stands on it. */
  private remove(key: string, slot: number, order: PeopleCursor): void {
    const list = this.lists.get(key);
    if (!list) return;
    const at = this.firstAfter(list, order, true);
    if (at >= list.length || list.slots[at] !== slot) return;
    list.slots.copyWithin(at, at + 1, list.length);
    list.length -= 1;
    if (list.length === 0) this.lists.delete(key);
  }

  /** Adds a person, or replaces the one with their id. */
  put(person: DirectoryPerson): void {
    const keys = keysOf(person);
    const slot = this.slotOf.get(person.id);
    if (slot === undefined) {
      const fresh = this.freeSlots.pop() ?? this.ids.length;
      this.ensureCapacity(fresh + 1);
      this.store(fresh, person);
      this.slotOf.set(person.id, fresh);
      for (const key of keys) this.insert(key, fresh);
      return;
    }
    const before = this.person(slot);
    const beforeKeys = keysOf(before);
    const order = { name: before.sortName, id: before.id };
    // A new name moves the person on every list; otherwise only the lists they join or
    // leave change.
    const moved = before.sortName !== person.sortName;
    for (const key of beforeKeys) if (moved || !keys.has(key)) this.remove(key, slot, order);
    this.store(slot, person);
    for (const key of keys) if (moved || !beforeKeys.has(key)) this.insert(key, slot);
  }

  delete(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const before = this.person(slot);
    const order = { name: before.sortName, id: before.id };
    for (const key of keysOf(before)) this.remove(key, slot, order);
    this.teamsOf.delete(slot);
    this.slotOf.delete(id);
    this.freeSlots.push(slot);
  }

  /** The slots of one page, in name order, after the cursor. */
  page(query: IndexQuery): number[] {
    const keys: string[] = ['*'];
    if (query.role) keys.push(`role:${query.role}`);
    if (query.status) keys.push(`status:${query.status}`);
    if (query.signIn) keys.push(`signIn:${query.signIn}`);
    if (query.team) keys.push(`team:${query.team}`);
    for (const gram of trigramsOf(query.q)) keys.push(`gram:${gram}`);
    let shortest: SlotList | undefined;
    for (const key of keys) {
      const list = this.lists.get(key);
      if (!list) return [];
      if (!shortest || list.length < shortest.length) shortest = list;
    }
    if (!shortest) return [];
    const role = query.role ? (query.role === 'admin' ? ADMIN : 0) : -1;
    const status = query.status ? STATUSES.indexOf(query.status) : -1;
    const found: number[] = [];
    const start = query.cursor ? this.firstAfter(shortest, query.cursor) : 0;
    for (let i = start; i < shortest.length && found.length < query.count; i += 1) {
      const slot = shortest.slots[i]!;
      const flags = this.flags[slot]!;
      if (query.q !== '' && !this.searchTexts[slot]!.includes(query.q)) continue;
      if (role >= 0 && (flags & ADMIN) !== role) continue;
      if (status >= 0 && (flags & STATUS_MASK) >> STATUS_SHIFT !== status) continue;
      if (query.signIn === 'password' && (flags & HAS_PASSWORD) === 0) continue;
      if (query.signIn === 'sso' && (flags & HAS_SSO) === 0) continue;
      if (query.signIn === 'never' && !Number.isNaN(this.lastSignInAt[slot]!)) continue;
      if (query.team && !(this.teamsOf.get(slot) ?? []).includes(query.team)) continue;
      found.push(slot);
    }
    return found;
  }

  /** Where a slot's person stands in name order: a page's cursor. */
  orderOf(slot: number): PeopleCursor {
    return { name: this.sortNames[slot]!, id: this.ids[slot]! };
  }

  /** The list's row of a person: the first `teamNames` of their teams, in name order. */
  row(slot: number, teamNames: number): PersonRow {
    const person = this.person(slot);
    const teams: { id: string; team: DirectoryTeam }[] = [];
    for (const id of person.teamIds) {
      const team = this.teams.get(id);
      if (team) teams.push({ id, team });
    }
    teams.sort((a, b) =>
      compareOrder({ sortName: a.team.sortName, id: a.id }, { name: b.team.sortName, id: b.id }),
    );
    return {
      id: person.id,
      name: person.name,
      email: person.email,
      role: person.role,
      status: person.status,
      lastSignInAt:
        person.lastSignInAt === null ? null : new Date(person.lastSignInAt).toISOString(),
      createdAt: new Date(person.createdAt).toISOString(),
      hasPassword: person.hasPassword,
      hasSso: person.hasSso,
      secondFactor: person.secondFactor,
      teamCount: person.teamIds.length,
      teams: teams.slice(0, teamNames).map((t) => t.team.name),
    };
  }
}
