// Reading a CSV file of people (decision 0085): the header names the columns, every other row
// is a person. Only the file as a whole is refused here (400, in words naming the problem);
// a row's own problems are the planner's, which refuses that row and keeps the others.
import { PEOPLE_IMPORT_LIMITS, textProblem } from '@signpost/contract';
import { CsvError, parse } from 'csv-parse/sync';
import { badRequest } from '../../lib/errors.ts';

/** The columns the import reads; any other column is left aside. */
export type ImportColumn = 'name' | 'email' | 'role' | 'teams';

const COLUMN_NAMES: Record<string, ImportColumn> = {
  name: 'name',
  email: 'email',
  'e-mail': 'email',
  role: 'role',
  teams: 'teams',
};

/** One row of people as the file has it, cells trimmed; absent columns are null. */
export interface ImportRow {
  /** The row's number in the file, the header being 1 (as a spreadsheet numbers rows). */
  row: number;
  name: string;
  email: string;
  role: string | null;
  teams: string | null;
  /** How many cells the row has where the header has `columns`. */
  cells: number;
  columns: number;
}

const MEGABYTES = PEOPLE_IMPORT_LIMITS.bytes / (1024 * 1024);

/** What csv-parse found wrong, in words a person acts on. */
const CSV_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by something other than a comma',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE:
    'a closing quote is followed by something other than a comma',
  CSV_MAX_RECORD_SIZE: 'a row is too long',
};

/**
 * The separator of cells: a comma, unless the header has none and holds semicolons or tabs
 * (spreadsheets of some languages save "CSV" with semicolons).
 */
function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/[\r\n]|$/));
  if (header.includes(',')) return ',';
  if (header.includes(';')) return ';';
  if (header.includes('\t')) return '\t';
  return ',';
}

/** The line of the first character that cannot be in the file, or null. */
function firstLineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/**
 * Reads the file: its rows of people in order, each with its number. Refuses the whole file,
 * with a 400 naming the problem, when it is too large, not UTF-8 text, not CSV, or lacks the
 * `name` or `email` column. Never throws anything else.
 */
export function parsePeopleCsv(csv: string): ImportRow[] {
  if (typeof csv !== 'string') throw badRequest('The CSV file is missing.');
  const bytes = Buffer.byteLength(csv, 'utf8');
  if (bytes > PEOPLE_IMPORT_LIMITS.bytes) {
    throw badRequest(
      `The file is ${(bytes / (1024 * 1024)).toFixed(1)} MB; an import takes ${MEGABYTES} MB at most. Split it into smaller files.`,
    );
  }
  // A file decoded from something other than UTF-8 holds replacement characters or halves of
  // characters; nothing of it can be trusted to be the names typed.
  const broken = /\ufffd|\p{Cs}/u.exec(csv);
  if (broken) {
    throw badRequest(
      `The file is not valid UTF-8 text (line ${firstLineOf(csv, broken.index)}): save it as "CSV UTF-8" and choose it again.`,
    );
  }
  const problem = textProblem(csv, true);
  if (problem) {
    const at = csv.search(
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/u,
    );
    throw badRequest(`The file ${problem} (line ${firstLineOf(csv, Math.max(at, 0))}).`);
  }
  let records: string[][];
  try {
    records = parse(csv, {
      bom: true,
      delimiter: delimiterOf(csv.replace(/^\ufeff/, '')),
      relax_column_count: true,
      skip_empty_lines: false,
      // One more than allowed: enough to tell that there are too many.
      to: PEOPLE_IMPORT_LIMITS.rows + 2,
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) {
      const what = CSV_PROBLEMS[error.code] ?? 'it cannot be read as CSV';
      const line = (error as CsvError & { lines?: number }).lines;
      throw badRequest(
        `The file is not valid CSV${typeof line === 'number' ? ` near line ${line}` : ''}: ${what}.`,
      );
    }
    throw badRequest('The file cannot be read as CSV.');
  }
  const [header, ...rest] = records;
  if (!header || header.every((cell) => cell.trim() === '')) {
    throw badRequest(
      'The file is empty: its first row must name the columns (name, email, role, teams).',
    );
  }
  const index: Partial<Record<ImportColumn, number>> = {};
  header.forEach((cell, position) => {
    const column = COLUMN_NAMES[cell.trim().toLowerCase()];
    if (!column) return;
    if (index[column] !== undefined) {
      throw badRequest(`The header names the column "${column}" twice.`);
    }
    index[column] = position;
  });
  const missing = (['name', 'email'] as const).filter((column) => index[column] === undefined);
  if (missing.length > 0) {
    throw badRequest(
      `The file has no ${missing.map((c) => `"${c}"`).join(' or ')} column: its first row must name the columns (name, email, role, teams).`,
    );
  }
  if (rest.length > PEOPLE_IMPORT_LIMITS.rows) {
    throw badRequest(
      `The file has more than ${PEOPLE_IMPORT_LIMITS.rows.toLocaleString('en')} rows of people; split it into smaller files.`,
    );
  }
  const cell = (record: string[], column: ImportColumn) => {
    const at = index[column];
    return at === undefined ? null : (record[at] ?? '').trim();
  };
  const rows: ImportRow[] = [];
  rest.forEach((record, position) => {
    // A blank line, or a row of empty cells, is nobody: it keeps its number and is skipped.
    if (record.every((value) => value.trim() === '')) return;
    rows.push({
      row: position + 2,
      name: cell(record, 'name') ?? '',
      email: cell(record, 'email') ?? '',
      role: cell(record, 'role'),
      teams: cell(record, 'teams'),
      cells: record.length,
      columns: header.length,
    });
  });
  if (rows.length === 0) throw badRequest('The file has no people: only its header row.');
  return rows;
}
