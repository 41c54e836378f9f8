/** One active person as the peer index holds them. */
export interface PeerEntry {
  id: string;
  name: string;
  email: string;
  /** `lower(name)` as the database lowers it: the search's order, and what it matches. */
  sortName: string;
  /** `lower(email)` as the database lowers it: what the search matches too. */
  lowerEmail: string;
}

/** A person as the search answers them. */
export interface PeerFound {
  id: string;
  name: string;
  email: string;
}

/** A list of people (their slots) in name order, with room to grow. */
interface SlotList {
  slots: Int32Array;
  length: number;
}

/**
 * Code point order, the order of a database whose collation compares bytes of UTF-8 (`C`,
 * `C.UTF-8`): JavaScript's `<` compares UTF-16 code units instead, which puts a character
 * outside the Basic Multilingual Plane (a surrogate pair) before U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  let at = 0;
  while (at < length && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  if (at === length) return a.length - b.length;
  let x = a.charCodeAt(at);
  let y = b.charCodeAt(at);
  if (x >= 0xd800 && y >= 0xd800) {
    // Surrogates after U+E000–U+FFFF; both moved within 0xD800–0xFFFF, order kept inside each.
    x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
  }
  return x - y;
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

/**
 * What the search's lists are made of: the grams of `text`, or `text` itself when it is
 * shorter than three code units (so that a short name is found by a short query).
 */
function gramsInto(grams: Set<Gram>, text: string): void {
  if (text.length < 3) {
    if (text.length > 0) grams.add(text);
    return;
  }
  for (let at = 0; at + 3 <= text.length; at += 1) grams.add(gramAt(text, at));
}

function gramsOf(sortName: string, lowerEmail: string): Set<Gram> {
  const grams = new Set<Gram>();
  gramsInto(grams, sortName);
  gramsInto(grams, lowerEmail);
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
 * A short query (one or two code units) is answered from the lists of every gram that
 * contains it: up to `SHORT_SORTED` places on them, gathered and sorted by place in name
 * order; up to `SHORT_CANDIDATES`, marked on everyone's places and read in name order;
 * beyond, it reads everyone in name order, where its matches are then frequent.
 */
export const SHORT_SORTED = 4000;
export const SHORT_CANDIDATES = 50_000;

/**
 * An organization's active people in memory, for the peer search (decision 0060): every
 * person once (in a slot), everyone in name order, and a list per gram (three-code-unit
 * substring of the lowered name or e-mail) in name order. A search reads the shortest list
 * of its query's grams, checks the query on each person, and stops when the page is full.
 *
 * The order is the statement's, `lower(name), id`, on a database that compares code points
 * (see `compareCodePoints`); what is matched is the database's lowering of name and e-mail.
 * Pure: the database side is `peer-directories.ts`.
 */
export class PeerIndex {
  private ids: string[] = [];
  private names: string[] = [];
  private emails: string[] = [];
  private sortNames: string[] = [];
  /** The lowered name, a line break and the lowered e-mail: a query holds no line break. */
  private texts: string[] = [];
  private readonly freeSlots: number[] = [];
  /** Each slot's place in `everyone`, for short queries; made again after a change. */
  private places = new Int32Array(0);
  private placesValid = false;
  /** Marks on places of `everyone`, for short queries; all clear between searches. */
  private marks = new Uint8Array(0);
  private readonly slotOf = new Map<string, number>();
  private readonly everyone: SlotList = { slots: new Int32Array(16), length: 0 };
  private readonly lists = new Map<Gram, SlotList>();
  /** For short queries: the grams that contain each one- and two-code-unit string. */
  private readonly gramsHolding = new Map<string, Set<Gram>>();

  get size(): number {
    return this.slotOf.size;
  }

  private compare(a: number, b: number): number {
    return (
      compareCodePoints(this.sortNames[a]!, this.sortNames[b]!) ||
      compareCodePoints(this.ids[a]!, this.ids[b]!)
    );
  }

  private store(slot: number, person: PeerEntry): void {
    this.ids[slot] = person.id;
    this.names[slot] = person.name;
    this.emails[slot] = person.email;
    this.sortNames[slot] = person.sortName;
    this.texts[slot] = `${person.sortName}\n${person.lowerEmail}`;
  }

  private lowerEmailOf(slot: number): string {
    return this.texts[slot]!.slice(this.sortNames[slot]!.length + 1);
  }

  /**
   * Adds people of a first load, read in the database's order, before any gram list
   * exists (`listSteps` then makes them). False, and nothing added, when they do not come
   * in this index's order (after those added before): the database orders otherwise.
   */
  append(people: PeerEntry[]): boolean {
    const first = this.ids.length;
    for (let at = 0; at < people.length; at += 1) {
      const person = people[at]!;
      const before = at > 0 ? people[at - 1] : first > 0 ? this.entry(first - 1) : undefined;
      if (
        before &&
        (compareCodePoints(before.sortName, person.sortName) ||
          compareCodePoints(before.id, person.id)) >= 0
      ) {
        return false;
      }
    }
    this.placesValid = false;
    for (let at = 0; at < people.length; at += 1) {
      const person = people[at]!;
      this.store(first + at, person);
      this.slotOf.set(person.id, first + at);
      this.push(this.everyone, first + at);
    }
    return true;
  }

  private entry(slot: number): PeerEntry {
    return {
      id: this.ids[slot]!,
      name: this.names[slot]!,
      email: this.emails[slot]!,
      sortName: this.sortNames[slot]!,
      lowerEmail: this.lowerEmailOf(slot),
    };
  }

  private push(list: SlotList, slot: number): void {
    if (list.length === list.slots.length) {
      const grown = new Int32Array(Math.max(4, list.slots.length * 2));
      grown.set(list.slots);
      list.slots = grown;
    }
    list.slots[list.length++] = slot;
  }

  /**
   * Makes the gram lists of the people appended, in steps of `chunk` people (the caller
   * yields between steps, so that a large organization does not hold up other calls). One
   * pass in name order: each person goes at the end of their grams' lists (once, however
   * often the gram occurs); the lists are cut to their size at the end.
   */
  *listSteps(chunk = 2000): Generator<void> {
    const order = this.everyone;
    const lists = this.lists;
    for (let at = 0; at < order.length; at += 1) {
      const slot = order.slots[at]!;
      // The grams of name and e-mail, read off the text that holds both: no gram spans the
      // line break between them, and a part shorter than three code units is its own gram.
      const text = this.texts[slot]!;
      const lineBreak = this.sortNames[slot]!.length;
      for (const [from, to] of [
        [0, lineBreak],
        [lineBreak + 1, text.length],
      ] as const) {
        if (to - from < 3) {
          if (to > from) this.appendGram(text.slice(from, to), slot);
          continue;
        }
        for (let start = from; start + 3 <= to; start += 1) {
          const gram = gramAt(text, start);
          const list = lists.get(gram);
          if (!list) this.appendGram(gram, slot);
          else if (list.slots[list.length - 1] !== slot) this.push(list, slot);
        }
      }
      if (at % chunk === chunk - 1) yield;
    }
    for (const list of lists.values()) {
      if (list.slots.length > list.length) list.slots = list.slots.slice(0, list.length);
    }
  }

  /** Puts `slot` at the end of a gram's list (a first load, in name order). */
  private appendGram(gram: Gram, slot: number): void {
    let list = this.lists.get(gram);
    if (!list) {
      list = { slots: new Int32Array(4), length: 0 };
      this.lists.set(gram, list);
      this.noteGram(gram);
    }
    if (list.length === 0 || list.slots[list.length - 1] !== slot) this.push(list, slot);
  }

  /** Loads people in name order into an empty index at once (`append`, every list step). */
  load(people: PeerEntry[]): boolean {
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

  /** The first place in `list` whose person comes after `slot`'s (or is it, `orEqual`). */
  private firstAfter(list: SlotList, slot: number, orEqual = false): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = this.compare(list.slots[middle]!, slot);
      if (order > 0 || (orEqual && order === 0)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private insert(list: SlotList, slot: number): void {
    const at = this.firstAfter(list, slot);
    this.push(list, slot);
    list.slots.copyWithin(at + 1, at, list.length - 1);
    list.slots[at] = slot;
  }

  /** Takes `slot` off `list`, while the slot still holds the name it was listed under. */
  private remove(list: SlotList, slot: number): void {
    const at = this.firstAfter(list, slot, true);
    if (at >= list.length || list.slots[at] !== slot) return;
    list.slots.copyWithin(at, at + 1, list.length);
    list.length -= 1;
  }

  private insertGram(gram: Gram, slot: number): void {
    let list = this.lists.get(gram);
    if (!list) {
      list = { slots: new Int32Array(4), length: 0 };
      this.lists.set(gram, list);
      this.noteGram(gram);
    }
    this.insert(list, slot);
  }

  private removeGram(gram: Gram, slot: number): void {
    const list = this.lists.get(gram);
    if (!list) return;
    this.remove(list, slot);
    if (list.length === 0) {
      this.lists.delete(gram);
      this.forgetGram(gram);
    }
  }

  /** Adds a person, or replaces the one with their id. */
  put(person: PeerEntry): void {
    this.placesValid = false;
    const slot = this.slotOf.get(person.id);
    if (slot === undefined) {
      const fresh = this.freeSlots.pop() ?? this.ids.length;
      this.store(fresh, person);
      this.slotOf.set(person.id, fresh);
      this.insert(this.everyone, fresh);
      for (const gram of gramsOf(person.sortName, person.lowerEmail)) this.insertGram(gram, fresh);
      return;
    }
    const beforeGrams = gramsOf(this.sortNames[slot]!, this.lowerEmailOf(slot));
    const grams = gramsOf(person.sortName, person.lowerEmail);
    // A new lowered name moves the person on every list; otherwise only the lists they join
    // or leave change.
    const moved = this.sortNames[slot] !== person.sortName;
    if (moved) this.remove(this.everyone, slot);
    for (const gram of beforeGrams) if (moved || !grams.has(gram)) this.removeGram(gram, slot);
    this.store(slot, person);
    if (moved) this.insert(this.everyone, slot);
    for (const gram of grams) if (moved || !beforeGrams.has(gram)) this.insertGram(gram, slot);
  }

  delete(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.placesValid = false;
    this.remove(this.everyone, slot);
    for (const gram of gramsOf(this.sortNames[slot]!, this.lowerEmailOf(slot))) {
      this.removeGram(gram, slot);
    }
    this.slotOf.delete(id);
    this.freeSlots.push(slot);
    this.ids[slot] = '';
    this.names[slot] = '';
    this.emails[slot] = '';
    this.sortNames[slot] = '';
    this.texts[slot] = '';
  }

  /**
   * One page of the people whose lowered name or e-mail contains `query` (already lowered
   * as the database lowers; '' for everyone), but `excludeId`, in name order: `limit`
   * people after the first `offset`. A query with a line break matches nobody here; the
   * caller does not ask for one.
   */
  search(query: string, excludeId: string, offset: number, limit: number): PeerFound[] {
    const exclude = this.slotOf.get(excludeId) ?? -1;
    const found: PeerFound[] = [];
    if (limit <= 0) return found;
    let skip = offset;
    const take = (slot: number): boolean => {
      if (slot === exclude) return false;
      if (skip > 0) skip -= 1;
      else found.push({ id: this.ids[slot]!, name: this.names[slot]!, email: this.emails[slot]! });
      return found.length >= limit;
    };
    if (query === '') {
      // Everyone: straight to the page, one place further when the caller comes before it.
      const list = this.everyone;
      const mine = exclude >= 0 ? this.firstAfter(list, exclude, true) : list.length;
      skip = 0;
      for (let at = mine < offset ? offset + 1 : offset; at < list.length; at += 1) {
        if (take(list.slots[at]!)) break;
      }
      return found;
    }
    const texts = this.texts;
    const list = query.length < 3 ? this.shortList(query) : this.shortestList(query);
    if (list === 'marked') {
      // The candidates are marked on everyone's places: read the marks in name order.
      const { marks, everyone } = this;
      for (let at = 0; at < everyone.length; at += 1) {
        if (marks[at] === 0) continue;
        const slot = everyone.slots[at]!;
        if (texts[slot]!.includes(query) && take(slot)) break;
      }
      marks.fill(0);
      return found;
    }
    if (!list) return found;
    for (let at = 0; at < list.length; at += 1) {
      const slot = list.slots[at]!;
      if (texts[slot]!.includes(query) && take(slot)) break;
    }
    return found;
  }

  /** The shortest list of the query's grams; undefined when one of them has no list. */
  private shortestList(query: string): SlotList | undefined {
    let shortest: SlotList | undefined;
    for (let at = 0; at + 3 <= query.length; at += 1) {
      const list = this.lists.get(gramAt(query, at));
      if (!list) return undefined;
      if (!shortest || list.length < shortest.length) shortest = list;
    }
    return shortest;
  }

  /**
   * The people a short query may match: those on the lists of the grams that contain it,
   * marked on everyone's places (`'marked'`) when they are not too many; everyone
   * otherwise. Undefined when no gram contains it.
   */
  private shortList(query: string): SlotList | 'marked' | undefined {
    const grams = this.gramsHolding.get(query);
    if (!grams) return undefined;
    let count = 0;
    for (const gram of grams) {
      count += this.lists.get(gram)!.length;
      if (count > SHORT_CANDIDATES) return this.everyone;
    }
    const everyone = this.everyone;
    if (!this.placesValid) {
      if (this.places.length < this.ids.length) this.places = new Int32Array(this.ids.length);
      for (let at = 0; at < everyone.length; at += 1) this.places[everyone.slots[at]!] = at;
      this.placesValid = true;
    }
    if (count <= SHORT_SORTED) {
      const sorted = new Int32Array(count);
      let filled = 0;
      for (const gram of grams) {
        const list = this.lists.get(gram)!;
        for (let at = 0; at < list.length; at += 1)
          sorted[filled++] = this.places[list.slots[at]!]!;
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
      const list = this.lists.get(gram)!;
      for (let at = 0; at < list.length; at += 1) this.marks[this.places[list.slots[at]!]!] = 1;
    }
    return 'marked';
  }
}
