import { beforeAll, describe, expect, it } from 'vitest';
import { loadBookmarkReaders, readBookmarks } from './read.ts';
import { csvCell, formatFolderPath, parseFolderPath } from './csv.ts';
import { BookmarkFileError } from './tree.ts';
import { fixture, folder, link, thrown } from './test-support.ts';

beforeAll(loadBookmarkReaders);

describe('CSV files of links', () => {
  it('reads the sample: columns in any order and case, folders in the order first met', () => {
    expect(readBookmarks(fixture('bookmarks.csv'), 'bookmarks.csv')).toEqual({
      format: 'csv',
      title: null,
      roots: [
        link('Company wiki', 'https://wiki.acme.example/', {
          description: 'Everything about Acme, start here',
        }),
        folder('People', [
          link('Payroll', 'https://payroll.acme.example/login'),
          link('Benefits overview', 'https://people.acme.example/benefits', {
            description: 'Health, pension and leave.\nUpdated every January.',
          }),
        ]),
        folder('Engineering', [
          folder('Tools', [
            link('Status page', 'https://status.acme.example/'),
            link('CI dashboard', 'https://ci.acme.example/dashboard?branch=main&view=all', {
              description: 'Builds of "main" and release branches',
            }),
            link('Pager', 'https://pager.acme.example/'),
          ]),
          link('Runbooks', 'https://runbooks.acme.example/'),
        ]),
        folder('Office', [
          folder('Berlin', [
            link('Café menu ☕', 'https://cafe.acme.example/menu', {
              description: 'Lunch from 12:00',
            }),
          ]),
        ]),
        folder('Product > Growth', [
          folder('Experiments', [
            link('A/B tests', 'https://experiments.acme.example/', {
              description: 'Which variant wins, and why',
            }),
          ]),
        ]),
        link('', 'https://www.example.com/no-name', { description: 'A link without a name' }),
      ],
    });
  });

  it('takes a quoted line break as part of its cell, even in a url or a name', () => {
    const { roots } = readBookmarks('url,title\n"https://a.example/\nmore","Two\nlines"\n');
    expect(roots).toEqual([link('Two\nlines', 'https://a.example/\nmore')]);
  });

  it('refuses a sheet without a url column, naming it', () => {
    const error = thrown(() => readBookmarks('name,description\nWiki,The wiki\n'));
    expect(error).toBeInstanceOf(BookmarkFileError);
    expect((error as Error).message).toBe(
      'The CSV file has no url column: its first line must name the columns, url among them (name, description and path may follow, in any order).',
    );
    // A sheet named .csv whose header names nothing we know is still read as a sheet.
    expect((thrown(() => readBookmarks('Link;Label\nx;y\n', 'links.csv')) as Error).message).toBe(
      (error as Error).message,
    );
  });

  it('reads semicolons or tabs when the first line has no comma', () => {
    const expected = [folder('A, B', [link('Wiki, old', 'https://w.example/')])];
    expect(readBookmarks('URL;Name;Path\nhttps://w.example/;Wiki, old;A, B\n').roots).toEqual(
      expected,
    );
    expect(readBookmarks('url\tname\tpath\nhttps://w.example/\tWiki, old\tA, B\n').roots).toEqual(
      expected,
    );
  });

  it('skips empty rows and reads short ones, with Windows line ends and a byte order mark', () => {
    const { roots } = readBookmarks(
      '\ufeffurl,name,description\r\nhttps://a.example/\r\n,,\r\n\r\nhttps://b.example/,B\r\n',
    );
    expect(roots).toEqual([link('', 'https://a.example/'), link('B', 'https://b.example/')]);
  });

  it('says so when a quote is never closed', () => {
    expect(
      (thrown(() => readBookmarks('url,name\nhttps://a.example/,"Wiki\n')) as Error).message,
    ).toBe(
      'The CSV file ends inside a quoted cell (a " is opened and never closed): it may have been cut off.',
    );
  });

  it('writes and reads folder paths with > and \\ in folder names', () => {
    const names = ['A > B', 'C:\\Docs\\', '>>', 'plain'];
    const path = formatFolderPath(names);
    expect(path).toBe('A \\> B > C:\\\\Docs\\\\ > \\>\\> > plain');
    expect(parseFolderPath(path)).toEqual(names);
    // Written by a person: a backslash before anything else stays, spaces around names go.
    expect(parseFolderPath('  C:\\Docs >  Sub  > ')).toEqual(['C:\\Docs', 'Sub']);
    expect(parseFolderPath('')).toEqual([]);
  });

  it('guards cells a spreadsheet would run, and reads them back as they were', () => {
    expect(['=1+1', '+x', '-x', '@x', "'=x", 'x=1', "'x"].map(csvCell)).toEqual([
      "'=1+1",
      "'+x",
      "'-x",
      "'@x",
      "''=x",
      'x=1',
      "'x",
    ]);
    const { roots } = readBookmarks(
      "url,name,path\nhttps://a.example/,'=HYPERLINK(1),'-Team\nhttps://b.example/,''=x,\nhttps://c.example/,'x,\n",
    );
    expect(roots).toEqual([
      folder('-Team', [link('=HYPERLINK(1)', 'https://a.example/')]),
      link("'=x", 'https://b.example/'),
      link("'x", 'https://c.example/'),
    ]);
  });
});
