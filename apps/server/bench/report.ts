// The one table the benchmark prints: figures against the budgets of docs/performance.md.
import type { LoadResult } from './load.ts';

export interface Row {
  what: string;
  load?: LoadResult;
  /** Requests per second of baseline B in the same run. */
  baseline?: number;
  /** Memory rows carry a figure in MB instead of a load. */
  memoryMb?: number | null;
  budget: string;
  /** Checks of the budget: each returns null when met, or why it was not. */
  checks: ((row: Row) => string | null)[];
  /** The status codes this measurement should see. */
  expect?: number[];
  note?: string;
  /** Why the measurement could not be made; the row then reads n/a. */
  skipped?: string;
}

export const ratioOf = (row: Row) =>
  row.load && row.baseline ? row.load.requestsPerSecond / row.baseline : null;

export const atLeastRatio =
  (min: number) =>
  (row: Row): string | null => {
    const ratio = ratioOf(row);
    // A missing figure is no pass: the budget was not shown to hold.
    if (ratio === null) return 'no figure';
    return ratio >= min ? null : `${ratio.toFixed(2)} × B < ${min} × B`;
  };

export const p99AtMost =
  (ms: number) =>
  (row: Row): string | null =>
    !row.load ? 'no figure' : row.load.p99 > ms ? `p99 ${row.load.p99} ms > ${ms} ms` : null;

export const memoryAtMost =
  (mb: number) =>
  (row: Row): string | null =>
    row.memoryMb == null
      ? 'no figure'
      : row.memoryMb <= mb
        ? null
        : `${row.memoryMb.toFixed(0)} MB > ${mb} MB`;

function unexpected(row: Row): string | null {
  if (!row.load || !row.expect) return null;
  const wrong = Object.entries(row.load.statusCodes).filter(
    ([code]) => !row.expect?.includes(Number(code)),
  );
  const errors = row.load.errors + row.load.timeouts;
  const parts = wrong.map(([code, n]) => `${n} × ${code}`);
  if (errors > 0) parts.push(`${errors} errors`);
  if (row.load.requests === 0) parts.push('no requests completed');
  return parts.length ? `unexpected answers: ${parts.join(', ')}` : null;
}

function verdict(row: Row): { result: string; why: string[] } {
  if (row.skipped) return { result: 'n/a', why: [row.skipped] };
  const why = [unexpected(row), ...row.checks.map((check) => check(row))].filter(
    (w): w is string => w !== null,
  );
  if (row.checks.length === 0 && why.length === 0) return { result: '—', why };
  return { result: why.length ? 'FAIL' : 'PASS', why };
}

const fixed = (n: number | undefined, digits = 0) =>
  n === undefined ? '' : n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** A Markdown table: readable in a terminal, pasted as is into docs/performance.md. */
export function table(rows: Row[]): string {
  const lines = [
    '| measurement | requests/s | ratio to B | p50 ms | p99 ms | memory | budget | result |',
    '|---|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const row of rows) {
    const ratio = ratioOf(row);
    const { result, why } = verdict(row);
    const notes = [...why, ...(row.note ? [row.note] : [])];
    lines.push(
      [
        '',
        ` ${row.what} `,
        ` ${fixed(row.load?.requestsPerSecond)} `,
        ` ${ratio === null ? '' : `${ratio.toFixed(2)} ×`} `,
        ` ${fixed(row.load?.p50, 1)} `,
        ` ${fixed(row.load?.p99, 1)} `,
        ` ${row.memoryMb == null ? '' : `${row.memoryMb.toFixed(0)} MB`} `,
        ` ${row.budget} `,
        ` ${result}${notes.length ? ` (${notes.join('; ')})` : ''} `,
        '',
      ].join('|'),
    );
  }
  return lines.join('\n');
}

/** Budgets missed, counting rows that could not be measured (n/a): those were not met. */
export function failures(rows: Row[]): number {
  return rows.filter((row) => {
    const { result } = verdict(row);
    return result === 'FAIL' || (result === 'n/a' && row.checks.length > 0);
  }).length;
}
