import { randomUUID } from 'node:crypto';
import type {
  DefaultTreeAdapterMap,
  DefaultTreeAdapterTypes,
  TreeAdapter,
  parse as parseHtml,
} from 'parse5';
import { BOOKMARK_FILE_LIMITS, BookmarkFileError } from './tree.ts';
import type { BookmarkFolder, BookmarkLink, BookmarkNode, ParsedBookmarks } from './tree.ts';
import { EntryCounter, checkDepth, tooDeep, tooManyEntries } from './limits.ts';

// The Netscape bookmark file, which every browser exports and imports: Chrome, Edge, Firefox
// and Safari write it, each a little differently. It is HTML that is never closed where a
// browser would close it (`<DT>` and `<p>` stay open), so it is read by parse5, the WHATWG
// parser, as a browser reads it, into the tree a browser would build: a folder's `<DL>` then
// lies inside the `<DT>` of its `<H3>`. That tree is walked in document order, as Firefox's
// importer walks it: a heading starts a folder, the next `<DL>` holds its children, its end
// closes the folder; an `<A HREF>` is a link, and a `<DD>` describes the item just before it.

type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

/**
 * How many elements and comments the parser may build: some six for each entry a file may
 * hold (a link is `<DT><A>` and maybe `<DD>`, a folder `<DT><H3><DD><DL><p>`), so that a file
 * of anything else (millions of empty tags) is refused before it fills the memory.
 */
const MAX_NODES = BOOKMARK_FILE_LIMITS.entries * 6;
/**
 * How deep elements may stand open: a folder opens two (its `<DT>` and its `<DL>`), and a
 * few more hold the page and the last item. Deeper HTML is no bookmark file, and formatting
 * tags left open (`<b>` upon `<b>`) cost the parser more with every one.
 */
const MAX_OPEN_ELEMENTS = 500;

// parse5 loads with the first file read, not with the server: loadNetscapeReader first.
let parse: typeof parseHtml | null = null;
let defaultAdapter: TreeAdapter<DefaultTreeAdapterMap> | null = null;
export async function loadNetscapeReader(): Promise<void> {
  if (parse) return;
  const parse5 = await import('parse5');
  defaultAdapter = parse5.defaultTreeAdapter;
  parse = parse5.parse;
}

/** Whether text that starts as HTML is a bookmark file: its doctype, or a `<DL>` list. */
export function looksLikeNetscape(text: string): boolean {
  return /<!DOCTYPE\s+NETSCAPE-Bookmark-file/i.test(text.slice(0, 4096)) || /<dl[\s>]/i.test(text);
}

export function truncated(): BookmarkFileError {
  return new BookmarkFileError(
    'The bookmark file ends in the middle: it may have been cut off while it was saved or copied. Export the bookmarks again, and import the new file.',
  );
}

const isHref = (attr: { name: string }) => attr.name === 'href';

/** What the parser saw of the lists as it built the tree. */
interface ListsSeen {
  /** Whether the file has a `<DL>` at all. */
  any: boolean;
  /** Whether the parser reached the mark at the end of the text. */
  ended: boolean;
  /** Whether a `<DL>` was still open at the end of the text: the file stops before its end. */
  openAtEnd: boolean;
}

/**
 * parse5's own tree, with the limits counted as it is built: links and folders, lists nested
 * in lists, open elements and every node. parse5 takes a whole string, and a file over a
 * limit is refused the moment the parser reaches the entry past it.
 *
 * The end of the text is marked by a comment of its own (`end`) appended to it: when the
 * parser makes that comment, any list still open was never closed. A file cut inside a tag
 * or a comment swallows the mark, and that too means it stops in the middle.
 */
function limitedAdapter(base: TreeAdapter<DefaultTreeAdapterMap>, end: string, seen: ListsSeen) {
  let nodes = 0;
  let entries = 0;
  let open = 0;
  // An `<a>` left open is cloned by the parser where the next text goes; a clone shares its
  // original's attribute list, and is counted once.
  const links = new WeakSet<object>();
  const openLists = new Set<Element>();
  const node = () => {
    nodes += 1;
    if (nodes > MAX_NODES) {
      throw new BookmarkFileError(
        `The file has more than ${MAX_NODES.toLocaleString('en-US')} HTML elements: more than a bookmark file of at most ${BOOKMARK_FILE_LIMITS.entries.toLocaleString('en-US')} bookmarks and folders needs.`,
      );
    }
  };
  const adapter: TreeAdapter<DefaultTreeAdapterMap> = {
    ...base,
    createElement(tagName, namespaceURI, attrs) {
      node();
      const entry = /^h[2-6]$/.test(tagName) || (tagName === 'a' && attrs.some(isHref));
      if (entry && !links.has(attrs)) {
        links.add(attrs);
        entries += 1;
        // The walk counts exactly; this stops the parser soon after the limit.
        if (entries > BOOKMARK_FILE_LIMITS.entries + 1) throw tooManyEntries();
      }
      return base.createElement(tagName, namespaceURI, attrs);
    },
    createCommentNode(data) {
      node();
      if (data === end) {
        seen.openAtEnd = openLists.size > 0;
        seen.ended = true;
      }
      return base.createCommentNode(data);
    },
    onItemPush(element) {
      open += 1;
      if (open > MAX_OPEN_ELEMENTS) {
        throw new BookmarkFileError(
          `The file's HTML is nested more than ${MAX_OPEN_ELEMENTS} elements deep, deeper than a bookmark file goes.`,
        );
      }
      if (element.tagName !== 'dl') return;
      seen.any = true;
      openLists.add(element);
      // The outermost list holds the top level: a folder n deep is in n + 1 lists.
      if (openLists.size > BOOKMARK_FILE_LIMITS.depth + 1) throw tooDeep();
    },
    onItemPop(element) {
      open -= 1;
      if (element.tagName === 'dl') openLists.delete(element);
    },
  };
  return adapter;
}

function attribute(element: Element, name: string): string | null {
  for (const attr of element.attrs) if (attr.name === name) return attr.value;
  return null;
}

/** Firefox reads `<H2>` to `<H6>` as folder headings too; `<H1>` is the file's title. */
function isHeading(element: Element): boolean {
  return /^h[2-6]$/.test(element.tagName);
}

/** ADD_DATE is in seconds; some tools write milliseconds or microseconds (Firefox's own unit). */
export function netscapeDate(value: string | null): Date | null {
  if (value === null || !/^\s*\d{1,20}\s*$/.test(value)) return null;
  let number = Number(value);
  // Seconds reach 1e11 in the year 5138: anything larger is finer than seconds.
  while (number >= 1e11) number /= 1000;
  if (number === 0) return null;
  return new Date(Math.round(number * 1000));
}

/** Text gathered for one field of one item, set once the walk is over. */
interface Collector {
  parts: string[];
}

interface Frame {
  node: ParentNode;
  next: number;
  /** Where the text inside goes: a field, or nowhere (null). */
  collector: Collector | null;
  /** The list whose end closes a container. */
  closesContainer: boolean;
}

/**
 * Reads a Netscape bookmark file. Call loadNetscapeReader first. Throws BookmarkFileError when
 * the file was cut off (its outermost list never ends) or is over a limit.
 */
export function readNetscape(text: string): ParsedBookmarks {
  if (!parse || !defaultAdapter) throw new Error('loadNetscapeReader() first');
  const end = `end ${randomUUID()}`;
  const seen: ListsSeen = { any: false, ended: false, openAtEnd: false };
  const document = parse(`${text}<!--${end}-->`, {
    treeAdapter: limitedAdapter(defaultAdapter, end, seen),
  });
  if (!seen.any || !seen.ended || seen.openAtEnd) throw truncated();

  const roots: BookmarkNode[] = [];
  const counter = new EntryCounter();
  /** The folders the walk is in (their children, and how deep they are), the top level first. */
  const containers: Array<{ children: BookmarkNode[]; depth: number }> = [
    { children: roots, depth: 0 },
  ];
  let pendingFolder: BookmarkFolder | null = null;
  let lastItem: BookmarkNode | null = null;
  let lists = 0;
  const seenLinks = new WeakSet<object>();
  const fields: Array<{ item: BookmarkNode; field: 'name' | 'description'; text: Collector }> = [];
  const title = { h1: null as Collector | null, title: null as Collector | null };

  const field = (item: BookmarkNode, name: 'name' | 'description'): Collector => {
    const text: Collector = { parts: [] };
    fields.push({ item, field: name, text });
    return text;
  };
  const current = () => containers[containers.length - 1] as (typeof containers)[number];

  const frames: Frame[] = [{ node: document, next: 0, collector: null, closesContainer: false }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as Frame;
    const child = frame.node.childNodes[frame.next];
    if (!child) {
      frames.pop();
      if (frame.closesContainer) {
        containers.pop();
        lists -= 1;
        pendingFolder = null;
        lastItem = null;
      }
      continue;
    }
    frame.next += 1;
    if (child.nodeName === '#text') {
      if (frame.collector) frame.collector.parts.push((child as { value: string }).value);
      continue;
    }
    if (!('tagName' in child)) continue;
    const element = child;
    // What the text inside goes to: by default, what it went to outside.
    let collector = frame.collector;
    let closesContainer = false;
    switch (element.tagName) {
      case 'a': {
        const href = attribute(element, 'href');
        // A clone the parser made of an `<a>` left open shares its attribute list.
        if (href === null || seenLinks.has(element.attrs)) {
          collector = null;
          break;
        }
        seenLinks.add(element.attrs);
        counter.add();
        const keyword = attribute(element, 'shortcuturl')?.trim() || null;
        const icon = attribute(element, 'icon')?.trim() ?? '';
        const link: BookmarkLink = {
          kind: 'link',
          name: '',
          url: href.trim(),
          description: '',
          addedAt: netscapeDate(attribute(element, 'add_date')),
          keyword,
          icon: /^data:/i.test(icon) ? icon : null,
        };
        current().children.push(link);
        lastItem = link;
        pendingFolder = null;
        collector = field(link, 'name');
        break;
      }
      case 'dl': {
        lists += 1;
        closesContainer = true;
        // A list after a heading holds that folder's items; any other list adds to the
        // folder it is in, as browsers read it.
        containers.push(
          pendingFolder
            ? { children: pendingFolder.children, depth: current().depth + 1 }
            : current(),
        );
        pendingFolder = null;
        lastItem = null;
        collector = null;
        break;
      }
      case 'dd':
        collector = lastItem ? field(lastItem, 'description') : null;
        break;
      case 'dt':
        pendingFolder = null;
        collector = null;
        break;
      case 'h1':
        collector = lists === 0 && !title.h1 ? (title.h1 = { parts: [] }) : null;
        break;
      case 'title':
        collector = title.title ? null : (title.title = { parts: [] });
        break;
      case 'script':
      case 'style':
      case 'template':
        // Not text a person wrote: left unread.
        continue;
      default:
        if (isHeading(element)) {
          counter.add();
          checkDepth(current().depth + 1);
          const folder: BookmarkFolder = {
            kind: 'folder',
            name: '',
            description: '',
            toolbar: attribute(element, 'personal_toolbar_folder')?.trim().toLowerCase() === 'true',
            children: [],
          };
          current().children.push(folder);
          lastItem = folder;
          pendingFolder = folder;
          collector = field(folder, 'name');
        }
    }
    frames.push({ node: element, next: 0, collector, closesContainer });
  }

  for (const { item, field: name, text } of fields) {
    const value = text.parts.join('').trim();
    if (name === 'name') item.name = value;
    else if (value) item.description = item.description ? `${item.description}\n${value}` : value;
  }
  const heading = (title.h1 ?? title.title)?.parts.join('').trim();
  return { format: 'netscape', title: heading || null, roots };
}
