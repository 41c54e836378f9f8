import { describe, expect, it } from 'vitest';
import { makeLink, makeMenu } from '../../test/menu-fixture';
import { processMenu } from './process-menu';
import { AUTOCOMPLETE_MIN_LENGTH } from '../constants';
import type { SearchEntry } from './menu-types';
import { createLinkSearch } from './search-links';

/** The definition of the search, written plainly: the narrowing search must agree with it. */
function plainSearch(index: readonly SearchEntry[], query: string) {
  const needle = query.trim().toLowerCase();
  if (needle.length < AUTOCOMPLETE_MIN_LENGTH) return [];
  return index.filter((entry) => entry.haystack.includes(needle));
}

const index = processMenu(
  makeMenu({
    myItems: [
      makeLink({ name: 'Grafana', description: 'Dashboards' }),
      makeLink({ name: 'Wiki', appName: 'Confluence' }),
    ],
  }),
).searchIndex;

describe('link search', () => {
  it.each([
    ['name', 'GRAF', 'Grafana'],
    ['description', 'dashb', 'Grafana'],
    ['appName', 'confluence', 'Wiki'],
    ['parentName', 'hr', 'Payroll'],
  ])('matches on %s, case-insensitively', (_field, query, expected) => {
    expect(createLinkSearch(index)(query).map((entry) => entry.item.name)).toContain(expected);
  });

  it('ignores blank queries and does not match what no field holds', () => {
    const search = createLinkSearch(index);
    expect(search('   ')).toEqual([]);
    expect(search('')).toEqual([]);
    expect(search('zzz')).toEqual([]);
  });

  it('keeps a keystroke over 10,000 links fast', () => {
    const big = processMenu(
      makeMenu({
        myItems: Array.from({ length: 10_000 }, (_, i) =>
          makeLink({ name: `Link number ${i}`, description: `About topic ${i % 97}` }),
        ),
      }),
    ).searchIndex;
    const started = performance.now();
    const search = createLinkSearch(big);
    for (const query of ['l', 'li', 'lin', 'link', 'topic 5', 'zz']) search(query);
    // Generous bound for shared machines; the budget is a 2 ms mean.
    expect((performance.now() - started) / 6).toBeLessThan(20);
  });
});

describe('createLinkSearch', () => {
  const many = processMenu(
    makeMenu({
      myItems: ['Payroll', 'Pay slips', 'Paint shop', 'Holiday planner', 'Pager duty'].map((name) =>
        makeLink({ name }),
      ),
    }),
  ).searchIndex;

  it('finds what the plain search finds, in the same order, keystroke after keystroke', () => {
    const search = createLinkSearch(many);
    for (const query of ['p', 'pa', 'pay', 'payr', 'pay', 'pai', 'p', 'pla', 'PLANNER ', 'zz']) {
      expect(search(query)).toEqual(plainSearch(many, query));
    }
  });

  it('narrows from an earlier query the new one contains, not from the whole index', () => {
    let reads = 0;
    const counted = many.map((entry) => ({
      ...entry,
      get haystack() {
        reads += 1;
        return entry.haystack;
      },
    }));
    const search = createLinkSearch(counted);
    search('pa');
    const afterFirst = reads;
    expect(afterFirst).toBe(counted.length);
    const narrowed = search('pay');
    expect(reads - afterFirst).toBe(plainSearch(many, 'pa').length);
    expect(narrowed.map((entry) => entry.item.name)).toEqual(
      plainSearch(many, 'pay').map((entry) => entry.item.name),
    );
    expect(narrowed.map((entry) => entry.item.name)).toContain('Pay slips');
  });

  it('ignores blank queries', () => {
    expect(createLinkSearch(many)('  ')).toEqual([]);
  });
});
