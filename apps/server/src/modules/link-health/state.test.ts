import { describe, expect, it } from 'vitest';
import type { CheckOutcome } from './check.ts';
import {
  CONFIRM_FAILURE_SECONDS,
  dueInSeconds,
  nextState,
  SLOW_DOWN_SECONDS,
  type CheckedBefore,
  type LinkState,
} from './state.ts';

const fine: CheckOutcome = { kind: 'fine', status: 200, url: 'https://a.example.com/' };
const moved: CheckOutcome = { kind: 'moved', status: 200, to: 'https://b.example.com/' };
const failure: CheckOutcome = {
  kind: 'failure',
  failure: 'http',
  status: 404,
  message: 'the site answered 404',
};
const timeout: CheckOutcome = {
  kind: 'failure',
  failure: 'timeout',
  status: null,
  message: 'no answer in 10 s',
};
const refused: CheckOutcome = {
  kind: 'refused',
  reason: 'internal-address',
  message: 'a private address',
};
const inconclusive: CheckOutcome = {
  kind: 'inconclusive',
  status: 429,
  retryAfterSeconds: 120,
  message: 'asked to slow down',
};

const row = (state: LinkState, failures = 0): CheckedBefore => ({
  state,
  failures,
  movedTo: state === 'moved' ? 'https://old-target.example.com/' : null,
});
const STATES: LinkState[] = ['unknown', 'fine', 'moved', 'broken'];

describe('the next state', () => {
  it.each(STATES)('is fine after a fine check, from %s, and the failures are over', (state) => {
    const next = nextState(row(state, state === 'broken' ? 3 : 1), fine);
    expect(next).toEqual({
      state: 'fine',
      failures: 0,
      movedTo: null,
      status: 200,
      failureKind: null,
      failure: null,
      conclusive: true,
      changed: state !== 'fine',
    });
  });

  it.each(STATES)('is moved after a permanent redirect, from %s, to its target', (state) => {
    const next = nextState(row(state, 1), moved);
    expect(next).toMatchObject({
      state: 'moved',
      failures: 0,
      movedTo: 'https://b.example.com/',
      changed: state !== 'moved',
    });
  });

  it.each(STATES.filter((s) => s !== 'broken'))(
    'stays %s after one failure, which is counted and noted',
    (state) => {
      const before = row(state);
      const next = nextState(before, failure);
      expect(next).toEqual({
        state,
        failures: 1,
        movedTo: before.movedTo,
        status: 404,
        failureKind: 'http',
        failure: 'the site answered 404',
        conclusive: true,
        changed: false,
      });
    },
  );

  it.each(STATES.filter((s) => s !== 'broken'))(
    'is broken after the second failure in a row, from %s',
    (state) => {
      const next = nextState(nextState(row(state), failure), timeout);
      expect(next).toMatchObject({
        state: 'broken',
        failures: 2,
        movedTo: null,
        failureKind: 'timeout',
        status: null,
        changed: true,
      });
    },
  );

  it('stays broken, unchanged since then, while the failures go on', () => {
    expect(nextState(row('broken', 2), failure)).toMatchObject({
      state: 'broken',
      failures: 3,
      changed: false,
    });
  });

  it('is not broken after two failures with a fine check between them', () => {
    const first = nextState(row('fine'), failure);
    const between = nextState(first, fine);
    expect(nextState(between, failure)).toMatchObject({ state: 'fine', failures: 1 });
  });

  it.each(STATES)('is unknown after a refused check, from %s: never broken', (state) => {
    const next = nextState(row(state, 1), refused);
    expect(next).toEqual({
      state: 'unknown',
      failures: 0,
      movedTo: null,
      status: null,
      failureKind: 'internal-address',
      failure: 'a private address',
      conclusive: true,
      changed: state !== 'unknown',
    });
  });

  it.each(STATES)('changes nothing of %s after an inconclusive check', (state) => {
    const before = row(state, state === 'broken' ? 2 : 1);
    const next = nextState(before, inconclusive);
    expect(next).toMatchObject({ ...before, conclusive: false, changed: false });
  });

  it('counts failures across inconclusive checks: they are not checks', () => {
    const first = nextState(row('fine'), failure);
    const waited = nextState(first, inconclusive);
    expect(nextState(waited, failure)).toMatchObject({ state: 'broken', failures: 2 });
  });
});

describe('when a link is due again', () => {
  const DAY = 24 * 3600;
  const due = (before: CheckedBefore, outcome: CheckOutcome, tries = 1, interval = DAY) =>
    dueInSeconds(nextState(before, outcome), outcome, { intervalSeconds: interval, tries });

  it('is the interval after fine, moved, refused, and once broken', () => {
    expect(due(row('unknown'), fine)).toBe(DAY);
    expect(due(row('fine'), moved)).toBe(DAY);
    expect(due(row('fine'), refused)).toBe(DAY);
    expect(due(row('fine', 1), failure)).toBe(DAY);
    expect(due(row('broken', 5), failure)).toBe(DAY);
  });

  it('is within the hour after a first failure, so that two in a row are not a day apart', () => {
    expect(due(row('fine'), failure)).toBe(CONFIRM_FAILURE_SECONDS);
    expect(CONFIRM_FAILURE_SECONDS).toBeGreaterThanOrEqual(15 * 60);
    expect(CONFIRM_FAILURE_SECONDS).toBeLessThanOrEqual(60 * 60);
    // Never later than the interval, when that is short.
    expect(due(row('fine'), failure, 1, 600)).toBe(600);
  });

  it('backs off after inconclusive checks in a row, honours Retry-After, up to the interval', () => {
    const noWish: CheckOutcome = { ...inconclusive, retryAfterSeconds: null } as CheckOutcome;
    expect([1, 2, 3].map((tries) => due(row('fine'), noWish, tries))).toEqual([
      SLOW_DOWN_SECONDS,
      SLOW_DOWN_SECONDS * 2,
      SLOW_DOWN_SECONDS * 4,
    ]);
    expect(due(row('fine'), noWish, 30)).toBe(DAY);
    const asked: CheckOutcome = { ...inconclusive, retryAfterSeconds: 5 * 3600 } as CheckOutcome;
    expect(due(row('fine'), asked, 1)).toBe(5 * 3600);
    expect(due(row('fine'), asked, 1, 3600)).toBe(3600);
  });
});
