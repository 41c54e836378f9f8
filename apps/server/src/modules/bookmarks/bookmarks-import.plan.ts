// What an import of a bookmark file makes, before anything is written (decision 0087): the
// tree of collections and links that will go in, every entry refused with its reason (the
// rules of a typed link, decision 0049), the links whose address the target space holds
// already, and what had to change for the file to fit. Pure: the service reads the target,
// plans, shows the plan as the preview, and writes it once confirmed.
import {
  BOOKMARK_IMPORT_LIMITS,
  isBlank,
  LIMITS,
  textProblem,
  withoutBidiControls,
  type BookmarkDuplicate,
  type BookmarkImportPreview,
  type BookmarkRefusal,
} from '@signpost/contract';
import { AppError } from '../../lib/errors.ts';
import { normalizeUrl } from '../../lib/urls.ts';
import type { BookmarkNode, ParsedBookmarks } from './formats/tree.ts';

export interface PlannedLink {
  kind: 'link';
  name: string;
  description: string;
  url: string;
  keyword: string | null;
}
export interface PlannedFolder {
  kind: 'folder';
  name: string;
  description: string;
  children: PlannedItem[];
}
export type PlannedItem = PlannedLink | PlannedFolder;

/** A link of the target space, by its address. */
export interface ExistingLink {
  id: string;
  name: string;
  collectionName: string;
}

export interface ImportPlan {
  /** What goes into the target, in order (the new collection's items, or the existing one's). */
  items: PlannedItem[];
  links: number;
  folders: number;
  depth: number;
  topFolders: BookmarkImportPreview['topFolders'];
  duplicateCount: number;
  duplicates: BookmarkDuplicate[];
  refusedCount: number;
  refused: BookmarkRefusal[];
  notices: string[];
}

export interface PlanOptions {
  /** Folder levels the target has room for below it (collections nest at most 10 deep). */
  levels: number;
  /** The links of the target space, by normalized address. */
  existing: ReadonlyMap<string, ExistingLink>;
  /** Links already in the space: left out, or imported as well. */
  duplicates: 'skip' | 'keep';
}

const KEYWORD = /^[\p{L}\p{N}][\p{L}\p{N}._\-/]{0,99}$/u;
const UNTITLED_FOLDER = 'Untitled folder';

/** A text as the portal stores it, or why it cannot be one. */
function cleanText(
  value: string,
  label: string,
  max: number,
  lines: boolean,
): { value: string } | { reason: string } {
  const text = withoutBidiControls(value).trim();
  const problem = textProblem(text, lines);
  if (problem) return { reason: `${label} ${problem}.` };
  if (text.length > max) return { reason: `${label} is longer than ${max} characters.` };
  return { value: text };
}

/** The name of a link the file left unnamed: its host, or the address itself. */
function nameFromUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return (parsed.hostname || url).slice(0, LIMITS.name);
  } catch {
    return url.slice(0, LIMITS.name);
  }
}

export function planImport(parsed: ParsedBookmarks, options: PlanOptions): ImportPlan {
  const plan: ImportPlan = {
    items: [],
    links: 0,
    folders: 0,
    depth: 0,
    topFolders: [],
    duplicateCount: 0,
    duplicates: [],
    refusedCount: 0,
    refused: [],
    notices: [],
  };
  let renamed = 0;
  let flattened = 0;
  let keywordsDropped = 0;
  const refuse = (path: string, name: string, url: string, reason: string) => {
    plan.refusedCount += 1;
    if (plan.refused.length < BOOKMARK_IMPORT_LIMITS.listed) {
      plan.refused.push({
        path,
        name: name.slice(0, LIMITS.name),
        url: url.slice(0, LIMITS.url),
        reason,
      });
    }
  };

  // Each entry with where it goes: the planned folder it joins (flattened folders give their
  // entries to the deepest folder that has room), its level there, and its path in the file.
  interface Step {
    node: BookmarkNode;
    into: PlannedItem[];
    level: number;
    path: string;
    top: { name: string; links: number; folders: number } | null;
  }
  // Depth first, in file order: the stack holds each folder's children in reverse.
  const stack: Step[] = [];
  const pushChildren = (
    nodes: readonly BookmarkNode[],
    into: PlannedItem[],
    level: number,
    path: string,
    top: Step['top'],
  ) => {
    for (let i = nodes.length - 1; i >= 0; i -= 1) {
      stack.push({ node: nodes[i]!, into, level, path, top });
    }
  };
  pushChildren(parsed.roots, plan.items, 0, '', null);

  while (stack.length > 0) {
    const { node, into, level, path, top } = stack.pop()!;
    if (node.kind === 'folder') {
      let name = withoutBidiControls(node.name).trim();
      const problem = textProblem(name, false);
      if (isBlank(name) || problem) {
        if (!isBlank(name)) renamed += 1;
        name = UNTITLED_FOLDER;
      } else if (name.length > LIMITS.name) {
        name = `${name.slice(0, LIMITS.name - 1)}…`;
        renamed += 1;
      }
      const childPath = path ? `${path} > ${name}` : name;
      if (level + 1 > options.levels) {
        // No room for another level: its entries join the folder it is in.
        flattened += 1;
        pushChildren(node.children, into, level, childPath, top);
        continue;
      }
      const description = cleanText(node.description, 'The description', LIMITS.description, true);
      const folder: PlannedFolder = {
        kind: 'folder',
        name,
        description: 'value' in description ? description.value : '',
        children: [],
      };
      into.push(folder);
      plan.folders += 1;
      plan.depth = Math.max(plan.depth, level + 1);
      let counted = top;
      if (level === 0) {
        counted = { name, links: 0, folders: 0 };
        if (plan.topFolders.length < BOOKMARK_IMPORT_LIMITS.topFolders) {
          plan.topFolders.push(counted);
        }
      } else if (top) {
        top.folders += 1;
      }
      pushChildren(node.children, folder.children, level + 1, childPath, counted);
      continue;
    }

    const given = node.url.trim();
    let url: string;
    try {
      url = normalizeUrl(given, 'The address');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refuse(path, node.name, given, `${error.message}.`.replace(/\.\.$/, '.'));
      continue;
    }
    const cleanedName = cleanText(node.name, 'The name', LIMITS.name, false);
    if ('reason' in cleanedName) {
      refuse(path, node.name, given, cleanedName.reason);
      continue;
    }
    const description = cleanText(node.description, 'The description', LIMITS.description, true);
    if ('reason' in description) {
      refuse(path, node.name, given, description.reason);
      continue;
    }
    const name = isBlank(cleanedName.value) ? nameFromUrl(url) : cleanedName.value;
    let keyword: string | null = null;
    if (node.keyword !== null && node.keyword.trim() !== '') {
      if (KEYWORD.test(node.keyword.trim())) keyword = node.keyword.trim();
      else keywordsDropped += 1;
    }
    const existing = options.existing.get(url);
    if (existing) {
      plan.duplicateCount += 1;
      if (plan.duplicates.length < BOOKMARK_IMPORT_LIMITS.listed) {
        plan.duplicates.push({ path, name, url, existing });
      }
      if (options.duplicates === 'skip') continue;
    }
    into.push({ kind: 'link', name, description: description.value, url, keyword });
    plan.links += 1;
    if (top) top.links += 1;
  }

  if (renamed > 0) {
    plan.notices.push(
      renamed === 1
        ? 'A folder’s name could not be kept as it was (too long, or with characters a name cannot hold): it was shortened or named “Untitled folder”.'
        : `${renamed} folders’ names could not be kept as they were (too long, or with characters a name cannot hold): they were shortened or named “Untitled folder”.`,
    );
  }
  if (flattened > 0) {
    plan.notices.push(
      `${flattened === 1 ? 'A folder lies' : `${flattened} folders lie`} deeper than collections may nest here: ${flattened === 1 ? 'its links go' : 'their links go'} into the folder above.`,
    );
  }
  if (keywordsDropped > 0) {
    plan.notices.push(
      `${keywordsDropped === 1 ? 'A keyword' : `${keywordsDropped} keywords`} could not be kept: a keyword holds letters, digits and . _ - / only, at most 100.`,
    );
  }
  return plan;
}

/** Every planned item, parents before their children, with its parent (null: the target). */
export function* plannedRows(
  items: readonly PlannedItem[],
): Generator<{ item: PlannedItem; parent: PlannedFolder | null; position: number }> {
  const stack: { items: readonly PlannedItem[]; parent: PlannedFolder | null }[] = [
    { items, parent: null },
  ];
  while (stack.length > 0) {
    const { items: list, parent } = stack.pop()!;
    for (const [position, item] of list.entries()) {
      yield { item, parent, position };
      if (item.kind === 'folder') stack.push({ items: item.children, parent: item });
    }
  }
}
