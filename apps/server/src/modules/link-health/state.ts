import type { CheckOutcome, FailureKind } from './check.ts';

/** A link's state (migration 0015, decision 0069). */
export type LinkState = 'fine' | 'moved' | 'broken' | 'unknown';

/** What a link's row holds before a check, as far as the next state depends on it. */
export interface CheckedBefore {
  state: LinkState;
  /** Failed checks in a row. */
  failures: number;
  movedTo: string | null;
}

/** What a check writes to the link's row. */
export interface Transition extends CheckedBefore {
  /**
   * False for an inconclusive check: nothing of the row changes but when it is due (what
   * the check before found stays, `checked_at` included); `status` and `failure` then say
   * what this check saw, for the round's log only.
   */
  conclusive: boolean;
  /** The HTTP status the check ended with, when it got one. */
  status: number | null;
  failureKind: FailureKind | 'internal-address' | 'bad-scheme' | 'bad-address' | null;
  failure: string | null;
  /** The state is another than before: `state_changed_at` moves. */
  changed: boolean;
}

/** Failed checks in a row that make a link broken. */
export const FAILURES_TO_BREAK = 2;

/**
 * The next state of a link from its row and a check's outcome. Pure: the repository writes
 * what it answers, the tests cover each transition.
 *
 * - fine and moved are believed at once, and end a run of failures;
 * - a failure counts; the second in a row makes the link broken, the first keeps the state
 *   it had (a new link's first failure leaves it unknown, a fine link's leaves it fine);
 * - a refused check (an internal address, not http or https) makes it unknown, never
 *   broken, and ends a run of failures: it says nothing about the site;
 * - an inconclusive check changes nothing.
 */
export function nextState(before: CheckedBefore, outcome: CheckOutcome): Transition {
  const to = (
    state: LinkState,
    fields: Omit<Transition, 'state' | 'changed' | 'conclusive'>,
  ): Transition => ({ state, changed: state !== before.state, conclusive: true, ...fields });
  switch (outcome.kind) {
    case 'fine':
      return to('fine', {
        failures: 0,
        movedTo: null,
        status: outcome.status,
        failureKind: null,
        failure: null,
      });
    case 'moved':
      return to('moved', {
        failures: 0,
        movedTo: outcome.to,
        status: outcome.status,
        failureKind: null,
        failure: null,
      });
    case 'failure': {
      const failures = before.failures + 1;
      const broken = failures >= FAILURES_TO_BREAK;
      return to(broken ? 'broken' : before.state, {
        failures,
        movedTo: broken ? null : before.movedTo,
        status: outcome.status,
        failureKind: outcome.failure,
        failure: outcome.message,
      });
    }
    case 'refused':
      return to('unknown', {
        failures: 0,
        movedTo: null,
        status: null,
        failureKind: outcome.reason,
        failure: outcome.message,
      });
    case 'inconclusive':
      return {
        ...before,
        conclusive: false,
        changed: false,
        status: outcome.status,
        failureKind: null,
        failure: outcome.message,
      };
  }
}

/** How soon a first failure is checked again: "two in a row" is minutes apart, not a day. */
export const CONFIRM_FAILURE_SECONDS = 30 * 60;
/** The first wait after a site asked us to slow down; it doubles each time it asks again. */
export const SLOW_DOWN_SECONDS = 30 * 60;

/**
 * When the link is due again, in seconds from now. The round's interval, except after a
 * first failure (checked again after `CONFIRM_FAILURE_SECONDS`, so that a link is called
 * broken, or not, within the hour) and after an inconclusive check: what the site asked for
 * (Retry-After), and at least 30 minutes doubling with each inconclusive check in a row
 * (`tries`), never later than the interval.
 */
export function dueInSeconds(
  transition: Transition,
  outcome: CheckOutcome,
  { intervalSeconds, tries }: { intervalSeconds: number; tries: number },
): number {
  if (!transition.conclusive) {
    const backoff = SLOW_DOWN_SECONDS * 2 ** Math.min(Math.max(tries - 1, 0), 10);
    const asked = outcome.kind === 'inconclusive' ? (outcome.retryAfterSeconds ?? 0) : 0;
    return Math.min(Math.max(backoff, asked), intervalSeconds);
  }
  if (transition.failures > 0 && transition.failures < FAILURES_TO_BREAK) {
    return Math.min(CONFIRM_FAILURE_SECONDS, intervalSeconds);
  }
  return intervalSeconds;
}
