import type { PersonRole, PersonRow, PersonStatus } from '@signpost/contract';
import { compareCodePoints, compareNamePlaces, type NamePlace } from './name-order.ts';

/** One person as the directory holds them: the console's row, and what the searches read. */
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
  /** `lower(name)` as the database lowers it: the order, and what a search matches. */
  sortName: string;
  /** `lower(email)` as the database lowers it: what a search matches too. */
  lowerEmail: string;
}

export interface DirectoryTeam {
  name: string;
  /** `lower(name)` as the database lowers it: the order of a row's team names. */
  sortName: string;
}

/** Conditions on a person that have lists of their own. */
export interface Facets {
  role?: PersonRole | undefined;
  status?: PersonStatus | undefined;
  signIn?: 'password' | 'sso' | 'never' | undefined;
  team?: string | undefined;
}

/** A list of people (their slots) in name order, with room to grow. */
interface SlotList {
  slots: Int32Array;
  length: number;
}

/**
 * A gram: three code units of a lowered name or e-mail, as one number when each is below
 * 1024 (most letters of most scripts: no string to make or hash), as a string otherwise;
 * or a whole name or e-mail shorter than three code units, as a string.
 */
type Gram = number | string;

function gramAt(text: string, at: number): Gram {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  const c = text.charCodeAt(at + 2);
  return (a | b | c) < 1024 ? (a << 20) | (b << 10) | c : text.slice(at, at + 3);
}

function textOf(gram: Gram): string {
  return typeof gram === 'string'
    ? gram
    : String.fromCharCode(gram >> 20, (gram >> 10) & 1023, gram & 1023);
}

/** The grams of `text[from, to)`, or that part itself when shorter than three code units. */
function gramsOfPart(grams: Set<Gram>, text: string, from: number, to: number): void {
  if (to - from < 3) {
    if (to > from) grams.add(text.slice(from, to));
    return;
  }
  for (let at = from; at + 3 <= to; at += 1) grams.add(gramAt(text, at));
}

/**
 * The grams of a person's text (lowered name, line break, lowered e-mail), each once: of the
 * name and of the e-mail, never across the line break between them. A query holds no line
 * break, so whatever it matches lies in one of the two.
 */
function gramsOfText(grams: Set<Gram>, text: string, lineBreak: number): Set<Gram> {
  grams.clear();
  gramsOfPart(grams, text, 0, lineBreak);
  gramsOfPart(grams, text, lineBreak + 1, text.length);
  return grams;
}

/** The one- and two-code-unit substrings of a gram: the short queries it answers. */
function partsOf(gram: Gram): string[] {
  const text = textOf(gram);
  const parts = new Set<string>();
  for (let at = 0; at < text.length; at += 1) {
    parts.add(text[at]!);
    if (at + 2 <= text.length) parts.add(text.slice(at, at + 2));
  }
  return [...parts];
}

/**
 * A query of one or two code units is answered from the lists of every gram that contains
 * it: up to `SHORT_SORTED` places on them, gathered and sorted by place in name order; up
 * to `SHORT_CANDIDATES`, marked on everyone's places and read in name order; beyond (or
 * when a condition's list is shorter), it reads that list, where its matches are then
 * frequent.
 */
export const SHORT_SORTED = 4000;
export const SHORT_CANDIDATES = 50_000;

const ROLES: readonly PersonRole[] = ['member', 'admin'];
const STATUSES: readonly PersonStatus[] = ['active', 'disabled', 'invited'];
// The bits of a person's flags: role (1), status (2), and four booleans.
const ADMIN = 1;
const STATUS_SHIFT = 1;
const STATUS_MASK = 3 << STATUS_SHIFT;
const HAS_PASSWORD = 8;
const HAS_SSO = 16;
const SECOND_FACTOR = 32;
const NEVER_SIGNED_IN = 64;

const EVERYONE = '*';
const ROLE_KEYS = ROLES.map((role) => `role:${role}`);
const STATUS_KEYS = STATUSES.map((status) => `status:${status}`);
const NO_TEAMS: readonly string[] = [];

function flagsOf(person: DirectoryPerson): number {
  return (
    (person.role === 'admin' ? ADMIN : 0) |
    (Math.max(0, STATUSES.indexOf(person.status)) << STATUS_SHIFT) |
    (person.hasPassword ? HAS_PASSWORD : 0) |
    (person.hasSso ? HAS_SSO : 0) |
    (person.secondFactor ? SECOND_FACTOR : 0) |
    (person.lastSignInAt === null ? NEVER_SIGNED_IN : 0)
  );
}

/** The lists a person with these flags and teams is on, besides their grams'. */
function facetKeysOf(flags: number, teamIds: readonly string[]): string[] {
  const keys = [
    EVERYONE,
    ROLE_KEYS[flags & ADMIN]!,
    STATUS_KEYS[(flags & STATUS_MASK) >> STATUS_SHIFT]!,
  ];
  if (flags & HAS_PASSWORD) keys.push('signIn:password');
  if (flags & HAS_SSO) keys.push('signIn:sso');
  if (flags & NEVER_SIGNED_IN) keys.push('signIn:never');
  for (const team of teamIds) keys.push(`team:${team}`);
  return keys;
}

/** The lists that hold everyone with `facets`: everyone's, and one per condition. */
function facetKeys(facets: Facets): string[] {
  const keys = [EVERYONE];
  if (facets.role) keys.push(`role:${facets.role}`);
  if (facets.status) keys.push(`status:${facets.status}`);
  if (facets.signIn) keys.push(`signIn:${facets.signIn}`);
  if (facets.team) keys.push(`team:${facets.team}`);
  return keys;
}

/** The flags `facets` ask for: the bits to look at and their values. */
function flagTest(facets: Facets): { mask: number; value: number } {
  let mask = 0;
  let value = 0;
  if (facets.role) {
    mask |= ADMIN;
    value |= facets.role === 'admin' ? ADMIN : 0;
  }
  if (facets.status) {
    mask |= STATUS_MASK;
    value |= STATUSES.indexOf(facets.status) << STATUS_SHIFT;
  }
  const signIn = { password: HAS_PASSWORD, sso: HAS_SSO, never: NEVER_SIGNED_IN };
  if (facets.signIn) {
    mask |= signIn[facets.signIn];
    value |= signIn[facets.signIn];
  }
  return { mask, value };
}

/**
 * An organization's people in memory, for the peer search and the console's people list
 * (decision 0072): every person once (in a slot, by column: strings in arrays, times and
 * flags in typed arrays), and lists of slots in name order — everyone, each role, status,
 * way of signing in and team, and each gram (three-code-unit substring) of lowered name
 * and e-mail. A search reads the shortest list its conditions and query allow, checks every
 * condition on each person from its starting place on, and stops when its caller has
 * enough (`scan`).
 *
 * The order is `compareNamePlaces`: the lowered name, then the id, by code point, the order
 * of the database's statements (`name-order.ts`). Pure: the database side is
 * `directory.service.ts`.
 */
export class DirectoryIndex {
  private ids: string[] = [];
  private names: string[] = [];
  private emails: string[] = [];
  private sortNames: string[] = [];
  /** The lowered name, a line break and the lowered e-mail: what a search matches. */
  private texts: string[] = [];
  private createdAt = new Float64Array(0);
  private lastSignInAt = new Float64Array(0);
  private flags = new Uint8Array(0);
  private readonly teamsOf = new Map<number, string[]>();
  private readonly freeSlots: number[] = [];
  private readonly slotOf = new Map<string, number>();
  /** Everyone's list (`*`) and one per role, status, way of signing in and team. */
  private readonly lists = new Map<string, SlotList>();
  private readonly grams = new Map<Gram, SlotList>();
  /** For short queries: the grams that contain each one- and two-code-unit string. */
  private readonly gramsHolding = new Map<string, Set<Gram>>();
  /** Each slot's place in everyone's list, for short queries; made again after a change. */
  private places = new Int32Array(0);
  private placesValid = false;
  /** Marks on places of everyone's list, for short queries; all clear between searches. */
  private marks = new Uint8Array(0);
  private teams = new Map<string, DirectoryTeam>();

  get size(): number {
    return this.slotOf.size;
  }

  setTeams(teams: Map<string, DirectoryTeam>): void {
    this.teams = teams;
  }

  /** The slot of the person with this id, or -1. */
  slotOfId(id: string): number {
    return this.slotOf.get(id) ?? -1;
  }

  /** Where a slot's person stands in name order: a page's cursor. */
  placeOf(slot: number): NamePlace {
    return { name: this.sortNames[slot]!, id: this.ids[slot]! };
  }

  /** A person as the peer search answers them. */
  peer(slot: number): { id: string; name: string; email: string } {
    return { id: this.ids[slot]!, name: this.names[slot]!, email: this.emails[slot]! };
  }

  /** The person in a slot, as `put` takes them. */
  person(slot: number): DirectoryPerson {
    const flags = this.flags[slot]!;
    const last = this.lastSignInAt[slot]!;
    const text = this.texts[slot]!;
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
      teamIds: [...(this.teamsOf.get(slot) ?? NO_TEAMS)],
      sortName: this.sortNames[slot]!,
      lowerEmail: text.slice(this.sortNames[slot]!.length + 1),
    };
  }

  /** The console's row of a person: the first `teamNames` of their teams, in name order. */
  row(slot: number, teamNames: number): PersonRow {
    const person = this.person(slot);
    const teams: { id: string; team: DirectoryTeam }[] = [];
    for (const id of person.teamIds) {
      const team = this.teams.get(id);
      if (team) teams.push({ id, team });
    }
    teams.sort((a, b) =>
      compareNamePlaces({ name: a.team.sortName, id: a.id }, { name: b.team.sortName, id: b.id }),
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

  private compare(slot: number, place: NamePlace): number {
    return (
      compareCodePoints(this.sortNames[slot]!, place.name) ||
      compareCodePoints(this.ids[slot]!, place.id)
    );
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
    this.texts[slot] = `${person.sortName}\n${person.lowerEmail}`;
    this.createdAt[slot] = person.createdAt;
    this.lastSignInAt[slot] = person.lastSignInAt ?? Number.NaN;
    this.flags[slot] = flagsOf(person);
    if (person.teamIds.length > 0) this.teamsOf.set(slot, [...person.teamIds]);
    else this.teamsOf.delete(slot);
  }

  private facetKeysOfSlot(slot: number): string[] {
    return facetKeysOf(this.flags[slot]!, this.teamsOf.get(slot) ?? NO_TEAMS);
  }

  private gramsOfSlot(slot: number, into: Set<Gram>): Set<Gram> {
    return gramsOfText(into, this.texts[slot]!, this.sortNames[slot]!.length);
  }

  /**
   * Adds people of a first load, read in the database's order, before any list exists
   * (`listSteps` then makes them). Each is kept by column at once, so that no object per
   * person outlives the part it was read in. False, and nothing added, when they do not
   * come in this index's order (after those added before): the database orders otherwise.
   */
  append(people: DirectoryPerson[]): boolean {
    const first = this.ids.length;
    let before = first > 0 ? this.placeOf(first - 1) : null;
    for (const person of people) {
      const place = { name: person.sortName, id: person.id };
      if (before && compareNamePlaces(before, place) >= 0) return false;
      before = place;
    }
    this.placesValid = false;
    this.ensureCapacity(first + people.length);
    for (let at = 0; at < people.length; at += 1) {
      this.store(first + at, people[at]!);
      this.slotOf.set(people[at]!.id, first + at);
    }
    return true;
  }

  /**
   * Makes the lists of the people appended, in steps of `chunk` people (the caller yields
   * between steps, so that a large organization does not hold up other calls). Two passes in
   * name order (count each list, then fill it), so that each list is allocated once at its
   * size.
   */
  *listSteps(chunk = 5000): Generator<void> {
    const count = this.ids.length;
    const facetCounts = new Map<string, number>();
    const gramCounts = new Map<Gram, number>();
    const grams = new Set<Gram>();
    for (let slot = 0; slot < count; slot += 1) {
      for (const key of this.facetKeysOfSlot(slot)) {
        facetCounts.set(key, (facetCounts.get(key) ?? 0) + 1);
      }
      for (const gram of this.gramsOfSlot(slot, grams)) {
        gramCounts.set(gram, (gramCounts.get(gram) ?? 0) + 1);
      }
      if (slot % chunk === chunk - 1) yield;
    }
    for (const [key, size] of facetCounts) {
      this.lists.set(key, { slots: new Int32Array(size), length: 0 });
    }
    for (const [gram, size] of gramCounts) {
      this.grams.set(gram, { slots: new Int32Array(size), length: 0 });
      this.noteGram(gram);
    }
    yield;
    for (let slot = 0; slot < count; slot += 1) {
      for (const key of this.facetKeysOfSlot(slot)) {
        const list = this.lists.get(key)!;
        list.slots[list.length++] = slot;
      }
      for (const gram of this.gramsOfSlot(slot, grams)) {
        const list = this.grams.get(gram)!;
        list.slots[list.length++] = slot;
      }
      if (slot % chunk === chunk - 1) yield;
    }
  }

  /** Loads people in name order into an empty index at once (`append`, every list step). */
  load(people: DirectoryPerson[]): boolean {
    if (!this.append(people)) return false;
    for (const _ of this.listSteps()) {
      // Every step at once.
    }
    return true;
  }

  private noteGram(gram: Gram): void {
    for (const part of partsOf(gram)) {
      let grams = this.gramsHolding.get(part);
      if (!grams) {
        grams = new Set();
        this.gramsHolding.set(part, grams);
      }
      grams.add(gram);
    }
  }

  private forgetGram(gram: Gram): void {
    for (const part of partsOf(gram)) {
      const grams = this.gramsHolding.get(part);
      grams?.delete(gram);
      if (grams?.size === 0) this.gramsHolding.delete(part);
    }
  }

  /** The first place in `list` whose person comes after `place` (or is at it, `orEqual`). */
  private firstAfter(list: SlotList, place: NamePlace, orEqual = false): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = this.compare(list.slots[middle]!, place);
      if (order > 0 || (orEqual && order === 0)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private insert(list: SlotList, slot: number): void {
    const at = this.firstAfter(list, this.placeOf(slot));
    if (list.length === list.slots.length) {
      const grown = new Int32Array(Math.max(4, Math.ceil(list.slots.length * 1.25)));
      grown.set(list.slots);
      list.slots = grown;
    }
    list.slots.copyWithin(at + 1, at, list.length);
    list.slots[at] = slot;
    list.length += 1;
  }

  /** Takes `slot` off `list`, while the slot still holds the name it was listed under. */
  private remove(list: SlotList, slot: number): void {
    const at = this.firstAfter(list, this.placeOf(slot), true);
    if (at >= list.length || list.slots[at] !== slot) return;
    list.slots.copyWithin(at, at + 1, list.length);
    list.length -= 1;
  }

  private insertFacet(key: string, slot: number): void {
    let list = this.lists.get(key);
    if (!list) {
      list = { slots: new Int32Array(4), length: 0 };
      this.lists.set(key, list);
    }
    this.insert(list, slot);
  }

  private removeFacet(key: string, slot: number): void {
    const list = this.lists.get(key);
    if (!list) return;
    this.remove(list, slot);
    if (list.length === 0) this.lists.delete(key);
  }

  private insertGram(gram: Gram, slot: number): void {
    let list = this.grams.get(gram);
    if (!list) {
      list = { slots: new Int32Array(4), length: 0 };
      this.grams.set(gram, list);
      this.noteGram(gram);
    }
    this.insert(list, slot);
  }

  private removeGram(gram: Gram, slot: number): void {
    const list = this.grams.get(gram);
    if (!list) return;
    this.remove(list, slot);
    if (list.length === 0) {
      this.grams.delete(gram);
      this.forgetGram(gram);
    }
  }

  /** Adds a person, or replaces the one with their id. */
  put(person: DirectoryPerson): void {
    this.placesValid = false;
    const keys = facetKeysOf(flagsOf(person), person.teamIds);
    const grams = gramsOfText(
      new Set(),
      `${person.sortName}\n${person.lowerEmail}`,
      person.sortName.length,
    );
    const slot = this.slotOf.get(person.id);
    if (slot === undefined) {
      const fresh = this.freeSlots.pop() ?? this.ids.length;
      this.ensureCapacity(fresh + 1);
      this.store(fresh, person);
      this.slotOf.set(person.id, fresh);
      for (const key of keys) this.insertFacet(key, fresh);
      for (const gram of grams) this.insertGram(gram, fresh);
      return;
    }
    const beforeKeys = this.facetKeysOfSlot(slot);
    const beforeGrams = this.gramsOfSlot(slot, new Set());
    // A new lowered name moves the person on every list; otherwise only the lists they join
    // or leave change.
    const moved = this.sortNames[slot] !== person.sortName;
    for (const key of beforeKeys) if (moved || !keys.includes(key)) this.removeFacet(key, slot);
    for (const gram of beforeGrams) if (moved || !grams.has(gram)) this.removeGram(gram, slot);
    this.store(slot, person);
    for (const key of keys) if (moved || !beforeKeys.includes(key)) this.insertFacet(key, slot);
    for (const gram of grams) if (moved || !beforeGrams.has(gram)) this.insertGram(gram, slot);
  }

  delete(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.placesValid = false;
    for (const key of this.facetKeysOfSlot(slot)) this.removeFacet(key, slot);
    for (const gram of this.gramsOfSlot(slot, new Set())) this.removeGram(gram, slot);
    this.slotOf.delete(id);
    this.teamsOf.delete(slot);
    this.freeSlots.push(slot);
    this.ids[slot] = '';
    this.names[slot] = '';
    this.emails[slot] = '';
    this.sortNames[slot] = '';
    this.texts[slot] = '';
  }

  /**
   * `count` people with one condition at most (`facets`), from place `offset` on its list,
   * in name order, but the person `except`: a page with no query, read straight off the
   * condition's list.
   */
  pageOf(facets: Facets, offset: number, count: number, except: string): number[] {
    const keys = facetKeys(facets);
    if (keys.length > 2) throw new Error('pageOf reads one condition at most');
    const list = this.lists.get(keys.at(-1)!);
    const found: number[] = [];
    if (!list) return found;
    // One place further when the person left out (if on the list) comes before the page.
    const slot = this.slotOf.get(except);
    const at = slot === undefined ? list.length : this.firstAfter(list, this.placeOf(slot), true);
    const left = at < list.length && list.slots[at] === slot ? at : list.length;
    for (let place = left < offset ? offset + 1 : offset; place < list.length; place += 1) {
      if (found.length >= count) break;
      if (place !== left) found.push(list.slots[place]!);
    }
    return found;
  }

  /**
   * Calls `visit` with each person who has `facets` and whose text contains `query` (lowered
   * as the database lowers; '' for any), in name order, from the first after `after` (or
   * from the start), until `visit` answers true. It reads the shortest list the conditions
   * and the query allow: the rarest gram of a query of three code units or more, the
   * gathered lists of a shorter one, or a condition's list; a query with a gram nobody has
   * reads no one.
   */
  scan(
    query: string,
    facets: Facets,
    after: NamePlace | null,
    visit: (slot: number) => boolean,
  ): void {
    let shortest: SlotList | undefined;
    for (const key of facetKeys(facets)) {
      const list = this.lists.get(key);
      if (!list) return;
      if (!shortest || list.length < shortest.length) shortest = list;
    }
    let source: SlotList | 'marked' = shortest!;
    if (query.length >= 3) {
      for (let at = 0; at + 3 <= query.length; at += 1) {
        const list = this.grams.get(gramAt(query, at));
        if (!list) return;
        if (list.length < source.length) source = list;
      }
    } else if (query !== '') {
      const gathered = this.shortList(query, source.length);
      if (gathered === undefined) return;
      if (gathered !== null) source = gathered;
    }
    const { texts, flags, teamsOf } = this;
    const { mask, value } = flagTest(facets);
    const team = facets.team;
    const fits = (slot: number) =>
      (flags[slot]! & mask) === value &&
      (query === '' || texts[slot]!.includes(query)) &&
      (team === undefined || (teamsOf.get(slot) ?? NO_TEAMS).includes(team));
    if (source === 'marked') {
      const { marks } = this;
      const everyone = this.lists.get(EVERYONE)!;
      try {
        for (let at = after ? this.firstAfter(everyone, after) : 0; at < everyone.length; at += 1) {
          if (marks[at] === 0) continue;
          const slot = everyone.slots[at]!;
          if (fits(slot) && visit(slot)) break;
        }
      } finally {
        marks.fill(0);
      }
      return;
    }
    for (let at = after ? this.firstAfter(source, after) : 0; at < source.length; at += 1) {
      const slot = source.slots[at]!;
      if (fits(slot) && visit(slot)) break;
    }
  }

  /**
   * The people a query of one or two code units may match, when fewer than `than`: those
   * on the lists of the grams that contain it, sorted in name order when they are few,
   * marked on everyone's places (`'marked'`) otherwise. Null when they are more than
   * `SHORT_CANDIDATES` or `than` (the caller reads its own list); undefined when no gram
   * contains the query (nobody matches).
   */
  private shortList(query: string, than: number): SlotList | 'marked' | null | undefined {
    const grams = this.gramsHolding.get(query);
    if (!grams) return undefined;
    let count = 0;
    for (const gram of grams) {
      count += this.grams.get(gram)!.length;
      if (count > SHORT_CANDIDATES || count >= than) return null;
    }
    const everyone = this.lists.get(EVERYONE)!;
    if (!this.placesValid) {
      if (this.places.length < this.ids.length) this.places = new Int32Array(this.ids.length);
      for (let at = 0; at < everyone.length; at += 1) this.places[everyone.slots[at]!] = at;
      this.placesValid = true;
    }
    if (count <= SHORT_SORTED) {
      const sorted = new Int32Array(count);
      let filled = 0;
      for (const gram of grams) {
        const list = this.grams.get(gram)!;
        for (let at = 0; at < list.length; at += 1) {
          sorted[filled++] = this.places[list.slots[at]!]!;
        }
      }
      sorted.sort();
      // Places to slots, each once (a person on several of the lists comes up in a row).
      let length = 0;
      let previous = -1;
      for (let at = 0; at < count; at += 1) {
        const place = sorted[at]!;
        if (place === previous) continue;
        previous = place;
        sorted[length++] = everyone.slots[place]!;
      }
      return { slots: sorted, length };
    }
    if (this.marks.length < everyone.length) this.marks = new Uint8Array(this.ids.length);
    for (const gram of grams) {
      const list = this.grams.get(gram)!;
      for (let at = 0; at < list.length; at += 1) this.marks[this.places[list.slots[at]!]!] = 1;
    }
    return 'marked';
  }
}
