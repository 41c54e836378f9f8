import { beforeAll, describe, expect, it } from 'vitest';
import { loadBookmarkReaders, readBookmarks } from './read.ts';
import { netscapeDate } from './netscape.ts';
import { fixture, folder, link, seconds } from './test-support.ts';

beforeAll(loadBookmarkReaders);

const PNG_1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG_2 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('Netscape bookmark files, as each browser exports them', () => {
  it('reads Chrome’s: the bar marked, Other bookmarks at the top level, same-named folders apart', () => {
    expect(readBookmarks(fixture('chrome.html'), 'bookmarks_1_6_24.html')).toEqual({
      format: 'netscape',
      title: 'Bookmarks',
      roots: [
        folder(
          'Bookmarks bar',
          [
            link('Inbox (3) - ada@example.com - Gmail', 'https://mail.google.com/mail/u/0/#inbox', {
              addedAt: seconds(1704099660),
              icon: PNG_1,
            }),
            link(
              'Google Calendar - Week of 1 January 2024',
              'https://calendar.google.com/calendar/u/0/r/week',
              { addedAt: seconds(1704099720), icon: PNG_2 },
            ),
            folder('Work', [
              link(
                'Sprint board - WEB - Jira',
                'https://acme.atlassian.net/jira/software/projects/WEB/boards/12',
                { addedAt: seconds(1704099840) },
              ),
              link(
                'Pull requests & reviews',
                'https://github.com/pulls?q=is%3Aopen+is%3Apr+review-requested%3A%40me',
                { addedAt: seconds(1704099900) },
              ),
              folder('Docs', [
                link('Engineering handbook', 'https://handbook.acme.example/engineering/', {
                  addedAt: seconds(1704100020),
                }),
                link(
                  'HTTP response status codes - HTTP | MDN',
                  'https://developer.mozilla.org/en-US/docs/Web/HTTP/Status',
                  { addedAt: seconds(1704100080) },
                ),
                folder('Archive 2023', [
                  link(
                    'Q4 review <draft>',
                    'https://handbook.acme.example/archive/2023/q4-review',
                    { addedAt: seconds(1704100200) },
                  ),
                ]),
              ]),
            ]),
            folder('Docs', [
              link('Google Docs', 'https://docs.google.com/document/u/0/', {
                addedAt: seconds(1704100320),
              }),
              link('Google Sheets', 'https://docs.google.com/spreadsheets/u/0/', {
                addedAt: seconds(1704100380),
              }),
            ]),
            link(
              'Café du Coin ☕ – la carte',
              'https://www.cafe-du-coin.example/menu?lang=fr&table=4',
              { addedAt: seconds(1704100440) },
            ),
            link('東京 - Wikipedia', 'https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC', {
              addedAt: seconds(1704100500),
            }),
          ],
          { toolbar: true },
        ),
        link('Wikipedia, the free encyclopedia', 'https://en.wikipedia.org/wiki/Main_Page', {
          addedAt: seconds(1704100560),
        }),
        folder('Recipes', [
          link('Soupe à l\u0027oignon gratinée', 'https://www.recettes.example/soupe-a-l-oignon', {
            addedAt: seconds(1704100680),
          }),
          link(
            'Classic Shakshuka Recipe',
            'https://cooking.example.com/recipes/1018684-classic-shakshuka',
            { addedAt: seconds(1704100740) },
          ),
        ]),
        folder('Read later', []),
        link('Berlin weather - 10 day forecast', 'https://weather.example.com/forecast/berlin', {
          addedAt: seconds(1704100860),
        }),
      ],
    });
  });

  it('reads Firefox’s: the menu at the top level, keywords, descriptions of links and folders', () => {
    const at = (value: number) => ({ addedAt: seconds(value) });
    expect(readBookmarks(fixture('firefox.html'))).toEqual({
      format: 'netscape',
      title: 'Bookmarks Menu',
      roots: [
        link('Getting Started', 'https://www.mozilla.org/en-US/firefox/central/', {
          ...at(1709251200),
          icon: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
        }),
        folder('Mozilla Firefox', [
          link('Get Help', 'https://support.mozilla.org/en-US/products/firefox', at(1709251200)),
          link(
            'Customize Firefox',
            'https://support.mozilla.org/en-US/kb/customize-firefox-controls-buttons-and-toolbars',
            at(1709251200),
          ),
          link('Get Involved', 'https://www.mozilla.org/en-US/contribute/', at(1709251200)),
          link('About Us', 'https://www.mozilla.org/en-US/about/', at(1709251200)),
        ]),
        folder(
          'Recipes',
          [
            link(
              'Pasta e ceci (Italian pasta with chickpeas)',
              'https://www.seriouseats.example/pasta-e-ceci',
              { ...at(1709337660), description: 'Ready in 40 minutes.\nServes four.' },
            ),
            link('Fluffy pancakes', 'https://www.seriouseats.example/pancakes', at(1709337720)),
          ],
          { description: 'Things to cook on weekends' },
        ),
        folder(
          'Bookmarks Toolbar',
          [
            link('MDN Web Docs', 'https://developer.mozilla.org/en-US/', {
              ...at(1709424060),
              keyword: 'mdn',
              description: 'Resources for developers, by developers',
            }),
            link('DuckDuckGo', 'https://duckduckgo.com/?q=%s', { ...at(1709424120), keyword: 'd' }),
            link('Wikipedia (en)', 'https://en.wikipedia.org/wiki/Special:Search?search=%s&go=Go', {
              ...at(1709424180),
              keyword: 'w',
              description: 'The free encyclopedia & its search',
            }),
            folder('News', [
              link(
                'tagesschau.de – die erste Adresse für Nachrichten',
                'https://www.tagesschau.de/',
                at(1709424300),
              ),
              link('Hacker News', 'https://news.ycombinator.com/', at(1709424360)),
            ]),
          ],
          {
            toolbar: true,
            description:
              'Add bookmarks to this folder to see them displayed on the Bookmarks Toolbar',
          },
        ),
        folder('Other Bookmarks', [
          // A query of Firefox's, not an address: the service decides what becomes of it.
          link(
            'Recently Bookmarked',
            'place:parent=toolbar_____&sort=12&maxResults=10',
            at(1709596800),
          ),
          link(
            'uBlock Origin – Get this Extension for 🦊 Firefox (en-US)',
            'https://addons.mozilla.org/en-US/firefox/addon/ublock-origin/',
            at(1709596860),
          ),
        ]),
      ],
    });
  });

  it('reads Edge’s: Chrome’s shape with the Favorites bar', () => {
    const at = (value: number) => ({ addedAt: seconds(value) });
    expect(readBookmarks(fixture('edge.html'))).toEqual({
      format: 'netscape',
      title: 'Bookmarks',
      roots: [
        folder(
          'Favorites bar',
          [
            link('Mail - Outlook', 'https://outlook.office.com/mail/', {
              ...at(1706774460),
              icon: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
            }),
            link('Microsoft Teams', 'https://teams.microsoft.com/v2/', at(1706774520)),
            folder('SharePoint', [
              link(
                'HR - Home',
                'https://contoso.sharepoint.com/sites/HR/SitePages/Home.aspx',
                at(1706774640),
              ),
              link(
                'IT - Documents',
                'https://contoso.sharepoint.com/sites/IT/Shared%20Documents/Forms/AllItems.aspx',
                at(1706774700),
              ),
            ]),
          ],
          { toolbar: true },
        ),
        link(
          'Microsoft Edge - Policies | Microsoft Learn',
          'https://learn.microsoft.com/en-us/deployedge/microsoft-edge-policies',
          at(1706774760),
        ),
        folder('Travel', [
          link('DB Fahrplan & Buchung', 'https://www.bahn.de/', at(1706774880)),
          link('SNCF Connect – trains en France', 'https://www.sncf-connect.com/', at(1706774940)),
        ]),
      ],
    });
  });

  it('reads Safari’s: no list around the top level, FOLDED folders, the Reading List', () => {
    expect(readBookmarks(fixture('safari.html'))).toEqual({
      format: 'netscape',
      title: 'Bookmarks',
      roots: [
        folder('Favorites', [
          link('Apple', 'https://www.apple.com/'),
          link('iCloud', 'https://www.icloud.com/'),
          folder('News', [
            link(
              'News, sport and opinion from the Guardian’s global edition | The Guardian',
              'https://www.theguardian.com/international',
            ),
            link(
              'Le Monde.fr - Actualités et Infos en France et dans le monde',
              'https://www.lemonde.fr/',
            ),
          ]),
        ]),
        folder('Bookmarks Menu', [
          link(
            'Featured | Apple Developer Documentation',
            'https://developer.apple.com/documentation/',
          ),
        ]),
        link('Blog | WebKit', 'https://webkit.org/blog/'),
        folder('Photography', []),
        folder('Reading List', [
          link('The case for a slower web', 'https://www.example.org/articles/slow-web', {
            description: 'Why pages that load in a blink still feel slow, and what to do about it.',
          }),
          link('Typography in 2024 & beyond', 'https://blog.example.net/2024/05/typography'),
        ]),
      ],
    });
  });
});

describe('Netscape bookmark files, as other tools write them', () => {
  const file = (body: string) =>
    `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${body}\n</DL><p>\n`;

  it('takes no <A> without an HREF, and an <A> left open once, not as often as it is cloned', () => {
    const { roots } = readBookmarks(
      file(`<DT><A NAME="top">Anchor</A>
        <DT><A HREF="https://a.example/">Open <b>bold
        <DT>stray text
        <DT><A HREF="https://b.example/">B</A>`),
    );
    expect(roots).toEqual([
      link('Open bold', 'https://a.example/'),
      link('B', 'https://b.example/'),
    ]);
  });

  it('reads headings H2 to H6 as folders, as Firefox does, and a list with no heading into its folder', () => {
    const { roots, title } = readBookmarks(
      file(`<DT><H2>Two</H2><DL><p><DT><A HREF="https://two.example/">2</A></DL><p>
        <DL><p><DT><A HREF="https://loose.example/">In a bare list</A></DL><p>
        <DT><H6>Six</H6>
        <DT><A HREF="https://after.example/">After an empty folder without a list</A>`),
    );
    expect(title).toBeNull();
    expect(roots).toEqual([
      folder('Two', [link('2', 'https://two.example/')]),
      link('In a bare list', 'https://loose.example/'),
      folder('Six', []),
      link('After an empty folder without a list', 'https://after.example/'),
    ]);
  });

  it('keeps text trimmed, entities decoded, and an empty name empty', () => {
    const { roots } = readBookmarks(
      file(`<DT><A HREF="  https://x.example/?a=1&amp;b=2  " SHORTCUTURL="  ">
        Tom &amp; Jerry&nbsp;&#8212; the show </A>
        <DT><A HREF="https://y.example/"></A>
        <DD>  only a description  `),
    );
    expect(roots).toEqual([
      link('Tom & Jerry\u00a0— the show', 'https://x.example/?a=1&b=2'),
      link('', 'https://y.example/', { description: 'only a description' }),
    ]);
  });

  it('keeps an ICON only when it holds the icon itself (a data: address)', () => {
    const { roots } = readBookmarks(
      file(`<DT><A HREF="https://x.example/" ICON="https://x.example/favicon.ico">X</A>`),
    );
    expect(roots).toEqual([link('X', 'https://x.example/')]);
  });

  it('reads ADD_DATE in seconds, and in the milliseconds or microseconds some tools write', () => {
    expect(netscapeDate('1700000000')).toEqual(seconds(1700000000));
    expect(netscapeDate('1700000000123')).toEqual(new Date(1700000000123));
    expect(netscapeDate('1700000000123456')).toEqual(new Date(1700000000123));
    expect(netscapeDate('0')).toBeNull();
    expect(netscapeDate('')).toBeNull();
    expect(netscapeDate('yesterday')).toBeNull();
    expect(netscapeDate(null)).toBeNull();
  });
});
