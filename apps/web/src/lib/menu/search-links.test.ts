import { describe, expect, it } from 'vitest';
import { makeLink, makeMenu } from '../../test/menu-fixture';
import { processMenu } from './process-menu';
import { countMatches, createLinkSearch, searchLinks } from './search-links';

const index = processMenu(
  makeMenu({
    myItems: [
      makeLink({ name: 'Grafana', description: 'Dashboards' }),
      makeLink({ name: 'Wiki', appName: 'Confluence' }),
    ],
  }),
).searchIndex;

describe('searchLinks', () => {
  it.each([
    ['name', 'GRAF', 'Grafana'],
    ['description', 'dashb', 'Grafana'],
    ['appName', 'confluence', 'Wiki'],
    ['parentName', 'hr', 'Payroll'],
  ])('matches on %s, case-insensitively', (_field, query, expected) => {
    expect(searchLinks(index, query).map((entry) => entry.item.name)).toContain(expected);
  });

  it('ignores blank queries and does not match what no field holds', () => {
    expect(searchLinks(index, '   ')).toEqual([]);
    expect(searchLinks(index, 'zzz')).toEqual([]);
    expect(countMatches(index, '')).toBe(0);
  });

  it('stops at the limit but counts every match', () => {
    expect(searchLinks(index, 'a', 1)).toHaveLength(1);
    expect(countMatches(index, 'a')).toBe(3);
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
    for (const query of ['l', 'li', 'lin', 'link', 'topic 5', 'zz']) searchLinks(big, query, 50);
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

  it('finds what searchLinks finds, in the same order, keystroke after keystroke', () => {
    const search = createLinkSearch(many);
    for (const query of ['p', 'pa', 'pay', 'payr', 'pay', 'pai', 'p', 'pla', 'PLANNER ', 'zz']) {
      expect(search(query)).toEqual(searchLinks(many, query));
      expect(search(query)).toHaveLength(countMatches(many, query));
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
    expect(reads - afterFirst).toBe(countMatches(many, 'pa'));
    expect(narrowed.map((entry) => entry.item.name)).toEqual(
      searchLinks(many, 'pay').map((entry) => entry.item.name),
    );
    expect(narrowed.map((entry) => entry.item.name)).toContain('Pay slips');
  });

  it('ignores blank queries', () => {
    expect(createLinkSearch(many)('  ')).toEqual([]);
  });
});
