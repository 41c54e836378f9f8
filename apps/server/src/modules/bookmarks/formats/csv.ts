import { CsvError, parse } from 'csv-parse/sync';
import { BOOKMARK_FILE_LIMITS, BookmarkFileError } from './tree.ts';
import type { BookmarkFolder, BookmarkLink, BookmarkNode, ParsedBookmarks } from './tree.ts';
import { EntryCounter, checkDepth, newFolder, tooManyEntries } from './limits.ts';

// A sheet of links, one a row, under a first row that names the columns (in any case and any
// order): `url` (required), `name` (or `title`), `description` and `path`. A path names the
// folders the link is in, outermost first, separated by ` > `: `Team > Onboarding`; an empty
// path is the top level. Commas separate the cells, or semicolons or tabs when the first row
// has no comma (as spreadsheets of some countries save them).
//
// Folder names may hold ` > ` themselves: in a path, `\>` is a `>` that separates nothing and
// `\\` is a backslash. A backslash before anything else is just a backslash (`C:\Docs`).
//
// A cell a spreadsheet would take for a formula is written with a leading apostrophe (the
// OWASP advice against "CSV injection", as the audit export does), and read back without it.

const SEPARATOR = ' > ';

/** A path of folder names, written as the `path` column has it. */
export function formatFolderPath(names: readonly string[]): string {
  return names.map((name) => name.replace(/[\\>]/g, (c) => `\\${c}`)).join(SEPARATOR);
}

/** The folder names of a `path` cell, outermost first; empty names are left out. */
export function parseFolderPath(path: string): string[] {
  const names: string[] = [];
  let name = '';
  for (let i = 0; i < path.length; i += 1) {
    const c = path[i] as string;
    const next = path[i + 1];
    if (c === '\\' && (next === '>' || next === '\\')) {
      name += next;
      i += 1;
    } else if (c === ' ' && next === '>' && path[i + 2] === ' ') {
      names.push(name);
      name = '';
      i += 2;
    } else {
      name += c;
    }
  }
  names.push(name);
  return names.map((each) => each.trim()).filter((each) => each !== '');
}

const FORMULA = /^'*[=+\-@\t\r]/;

/** A cell as written: one a spreadsheet would run as a formula gets a leading apostrophe. */
export function csvCell(text: string): string {
  return FORMULA.test(text) ? `'${text}` : text;
}

/** A cell as read: without the apostrophe csvCell added. */
function cellText(cell: string): string {
  return cell.startsWith("'") && FORMULA.test(cell) ? cell.slice(1) : cell;
}

/** The column names that make a first row look like a bookmark sheet's. */
const COLUMNS = ['url', 'name', 'title', 'description', 'path'];

function delimiterOf(text: string): string {
  const newline = text.search(/[\r\n]/);
  const header = newline === -1 ? text : text.slice(0, newline);
  if (header.includes(',')) return ',';
  if (header.includes(';')) return ';';
  if (header.includes('\t')) return '\t';
  return ',';
}

/** Whether text is a sheet with a header: its first row names one of our columns. */
export function looksLikeCsv(text: string): boolean {
  const newline = text.search(/[\r\n]/);
  const header = (newline === -1 ? text : text.slice(0, newline)).slice(0, 1000);
  return header
    .split(delimiterOf(header))
    .some((cell) => COLUMNS.includes(cell.trim().replace(/^"|"$/g, '').trim().toLowerCase()));
}

function csvProblem(error: CsvError): BookmarkFileError {
  const line = typeof error.lines === 'number' ? error.lines : null;
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    return new BookmarkFileError(
      'The CSV file ends inside a quoted cell (a " is opened and never closed): it may have been cut off.',
    );
  }
  return new BookmarkFileError(
    `The CSV file cannot be read${line ? ` at line ${line.toLocaleString('en-US')}` : ''}: a cell that holds a quote (") must be quoted itself, with the quote doubled ("").`,
  );
}

/** Reads a sheet of links; its folders come in the order their first link does. */
export function readCsv(text: string): ParsedBookmarks {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: delimiterOf(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      // The header, the most rows that may be read, and one to know there are more.
      to: BOOKMARK_FILE_LIMITS.entries + 2,
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) throw csvProblem(error);
    throw error;
  }
  const [header = [], ...rows] = records;
  if (rows.length > BOOKMARK_FILE_LIMITS.entries) throw tooManyEntries();
  const columns = header.map((cell) => cellText(cell).trim().toLowerCase());
  const column = (...names: string[]) => {
    for (const name of names) {
      const index = columns.indexOf(name);
      if (index !== -1) return index;
    }
    return -1;
  };
  const url = column('url');
  if (url === -1) {
    throw new BookmarkFileError(
      'The CSV file has no url column: its first line must name the columns, url among them (name, description and path may follow, in any order).',
    );
  }
  const name = column('name', 'title');
  const description = column('description');
  const path = column('path');

  const roots: BookmarkNode[] = [];
  const counter = new EntryCounter();
  // Folders by their path, the names joined by a character no name holds.
  const folders = new Map<string, BookmarkFolder>();
  for (const row of rows) {
    if (row.every((cell) => cell.trim() === '')) continue;
    const cell = (index: number) => (index === -1 ? '' : cellText(row[index] ?? '').trim());
    let children = roots;
    let key = '';
    const names = parseFolderPath(cell(path));
    checkDepth(names.length);
    for (const folderName of names) {
      key += `\u0000${folderName}`;
      let folder = folders.get(key);
      if (!folder) {
        counter.add();
        folder = newFolder(folderName);
        folders.set(key, folder);
        children.push(folder);
      }
      children = folder.children;
    }
    counter.add();
    const link: BookmarkLink = {
      kind: 'link',
      name: cell(name),
      url: cell(url),
      description: cell(description),
      addedAt: null,
      keyword: null,
      icon: null,
    };
    children.push(link);
  }
  return { format: 'csv', title: null, roots };
}
