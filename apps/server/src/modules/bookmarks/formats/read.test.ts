import { beforeAll, describe, expect, it } from 'vitest';
import { loadBookmarkReaders, readBookmarks } from './read.ts';
import { BOOKMARK_FILE_LIMITS, BookmarkFileError } from './tree.ts';
import { fixture, thrown } from './test-support.ts';

beforeAll(loadBookmarkReaders);

/** The message of the BookmarkFileError that reading `text` throws. */
const refusal = (text: string, fileName?: string) => {
  const error = thrown(() => readBookmarks(text, fileName));
  expect(error).toBeInstanceOf(BookmarkFileError);
  return (error as Error).message;
};

const WHAT_WE_READ =
  "Signpost imports a browser's bookmark export (an HTML file), a CSV file with a url column, and the JSON of a Signpost export, a ManagedBookmarks policy, Linkwarden or linkding.";
const NETSCAPE = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<DL><p>\n';

describe('readBookmarks: which format a file is', () => {
  it('tells each sample’s format from its content, whatever its name', () => {
    const formats = Object.fromEntries(
      [
        'chrome.html',
        'firefox.html',
        'edge.html',
        'safari.html',
        'bookmarks.csv',
        'managed-chrome.json',
        'policies-firefox.json',
        'linkwarden.json',
        'linkding.json',
      ].map((name) => [name, readBookmarks(fixture(name), 'download').format]),
    );
    expect(formats).toEqual({
      'chrome.html': 'netscape',
      'firefox.html': 'netscape',
      'edge.html': 'netscape',
      'safari.html': 'netscape',
      'bookmarks.csv': 'csv',
      'managed-chrome.json': 'managed',
      'policies-firefox.json': 'managed',
      'linkwarden.json': 'linkwarden',
      'linkding.json': 'linkding',
    });
  });

  it('reads a bookmark file without the doctype, and after a byte order mark', () => {
    const { format, roots } = readBookmarks(
      '\ufeff  <dl><dt><a href="https://a.example/">A</a></dl>',
    );
    expect(format).toBe('netscape');
    expect(roots).toHaveLength(1);
  });
});

describe('readBookmarks: files it refuses, and what it says', () => {
  it('refuses a picture: its bytes are not text', () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    expect(refusal(new TextDecoder().decode(png), 'photo.png')).toBe(
      `This is not a bookmark file: it holds binary data (a picture or a program, say), not text. ${WHAT_WE_READ}`,
    );
  });

  it('refuses prose, an empty file, and a web page without a list', () => {
    expect(
      refusal('Dear team, here are the links we talked about: the wiki, the tracker, and the CI.'),
    ).toBe(
      `This is not a bookmark file: its content is none of the formats Signpost knows. ${WHAT_WE_READ}`,
    );
    expect(refusal(' \n\t')).toBe(`This is not a bookmark file: it is empty. ${WHAT_WE_READ}`);
    expect(refusal('<!DOCTYPE html><html><body><p>Hello</p></body></html>')).toBe(
      `This is not a bookmark file: it is a web page or other markup, without a list of bookmarks in it. ${WHAT_WE_READ}`,
    );
  });

  it('refuses a bookmark file cut off in the middle, wherever the cut is', () => {
    const chrome = fixture('chrome.html');
    const message =
      'The bookmark file ends in the middle: it may have been cut off while it was saved or copied. Export the bookmarks again, and import the new file.';
    for (const cut of [
      chrome.indexOf('<DT><H3 ADD_DATE="1704100260"'), // between two folders
      chrome.indexOf('Google Sheets'), // in a name
      chrome.indexOf('base64,') + 20, // in an attribute
      chrome.lastIndexOf('</DL>') + 3, // in the last tag
      chrome.indexOf('<DL>'), // before any list
    ]) {
      expect(refusal(chrome.slice(0, cut))).toBe(message);
    }
    expect(refusal(fixture('firefox.html').slice(0, -8))).toBe(message);
    // After the last </DL>, nothing is missing.
    expect(readBookmarks(chrome.slice(0, chrome.lastIndexOf('</DL>') + 5)).roots).toHaveLength(5);
  });

  it('refuses a file over 20 MB, saying how large it is', () => {
    const line = '<DT><A HREF="https://example.com/">Example</A>\n';
    // Just under 23.4 MB: the size is rounded up, never to the limit itself.
    const big = NETSCAPE + line.repeat(Math.floor((23.4 * 1024 * 1024) / line.length) - 2);
    expect(refusal(big)).toBe('The file is 23.4 MB; at most 20 MB can be imported.');
    // Counted in UTF-8: 7 million three-byte characters are 20.1 MB.
    expect(refusal(`url\n${'€'.repeat(7_000_000)}`)).toBe(
      'The file is 20.1 MB; at most 20 MB can be imported.',
    );
  });

  it('refuses folders nested 10,000 deep, without running out of stack', () => {
    const depth = 10_000;
    const deep = `${NETSCAPE}${'<DT><H3>Folder</H3>\n<DL><p>\n'.repeat(depth)}${'</DL><p>\n'.repeat(depth + 1)}`;
    expect(refusal(deep)).toBe('Folders are nested more than 100 levels deep.');
    const json = (open: string, close: string) => open.repeat(depth) + close.repeat(depth);
    expect(refusal(json('[{"name":"F","children":', '}]'))).toBe(
      'Folders are nested more than 100 levels deep.',
    );
    const path = Array.from({ length: 101 }, (_, i) => `F${i}`).join(' > ');
    expect(refusal(`url,path\nhttps://a.example/,${path}\n`)).toBe(
      'Folders are nested more than 100 levels deep.',
    );
  });

  it('reads folders 100 deep', () => {
    const depth = BOOKMARK_FILE_LIMITS.depth;
    const file = `${NETSCAPE}${'<DT><H3>F</H3>\n<DL><p>\n'.repeat(depth)}${'</DL><p>\n'.repeat(depth + 1)}`;
    let node = readBookmarks(file).roots[0];
    let levels = 0;
    while (node?.kind === 'folder') {
      levels += 1;
      node = node.children[0];
    }
    expect(levels).toBe(depth);
  });

  it('refuses a million entries quickly, without reading them all', () => {
    const message =
      'The file has more than 100,000 bookmarks and folders; at most 100,000 can be imported at once.';
    for (const text of [
      NETSCAPE + '<DT><A HREF="x">'.repeat(1_000_000),
      `url\n${'x\n'.repeat(1_000_000)}`,
      JSON.stringify([{ toplevel_name: 'Links' }, ...Array(1_000_000).fill({ url: 'x' })]),
    ]) {
      const started = performance.now();
      expect(refusal(text)).toBe(message);
      // Well under what reading them all would take, even on a busy machine.
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });

  it('refuses HTML of millions of tags, or nested deeper than any bookmark file', () => {
    expect(refusal(NETSCAPE + '<br>'.repeat(700_000))).toBe(
      'The file has more than 600,000 HTML elements: more than a bookmark file of at most 100,000 bookmarks and folders needs.',
    );
    expect(refusal(NETSCAPE + '<div>'.repeat(100_000))).toBe(
      "The file's HTML is nested more than 500 elements deep, deeper than a bookmark file goes.",
    );
  });

  it('refuses text that is not UTF-8', () => {
    const message =
      'The file is not valid UTF-8 text: it was saved in another encoding. Save or export it again as UTF-8 (most programs offer it), and import that.';
    // Latin-1 bytes of "Café", decoded as UTF-8.
    const latin1 = new TextDecoder().decode(
      Buffer.from(`${NETSCAPE}<DT><A HREF="x">Caf\xe9</A>`, 'latin1'),
    );
    expect(latin1).toContain('\ufffd');
    expect(refusal(latin1)).toBe(message);
    expect(refusal('url,name\nhttps://a.example/,\ufffd\n')).toBe(message);
    // As Windows Notepad saves "Unicode": UTF-16, with its byte order mark.
    const utf16 = new TextDecoder().decode(
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('url,name\r\nhttps://a.example/,A\r\n', 'utf16le'),
      ]),
    );
    expect(refusal(utf16)).toBe(message);
  });
});
