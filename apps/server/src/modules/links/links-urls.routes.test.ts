import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/app.ts';
import { countRows, createCollection } from '../../../test/factories.ts';
import { createSignedInCast } from '../../../test/support/world.ts';
import { call } from '../../../test/support/consumer-call.ts';

const { app, db } = await createTestApp();
const cast = await createSignedInCast(app, db);

const ALLOWED = new Set(['http:', 'https:', 'mailto:']);
// Spaces, control characters and the invisible ones that can hide a scheme.
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\s\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/;

// Strings built to look like addresses: a known or random scheme, hidden characters and
// spaces around and inside it, then any text; plus plain strings and real web addresses.
const noise = fc.constantFrom(
  '',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u0008',
  '\u00a0',
  '\u00ad',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2060',
  '\ufeff',
  '\u3000',
);
const scheme = fc.oneof(
  fc.constantFrom(
    'javascript',
    'JaVaScRiPt',
    'JAVASCRIPT',
    'data',
    'vbscript',
    'file',
    'ftp',
    'blob',
    'about',
    'ws',
    'intent',
    'http',
    'https',
    'mailto',
    'HTTPS',
  ),
  fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9+.-]{0,12}$/),
);
const schemeSplit = fc.tuple(scheme, fc.nat(), noise).map(([s, at, hidden]) => {
  const i = at % (s.length + 1);
  return s.slice(0, i) + hidden + s.slice(i);
});
const addressLike = fc
  .tuple(
    noise,
    schemeSplit,
    noise,
    fc.constantFrom(':', '://', ':/', ':\\\\', '%3A', '&colon;'),
    fc.string({ maxLength: 40, unit: 'grapheme' }),
  )
  .map((parts) => parts.join(''));
const input = fc.oneof(
  addressLike,
  fc.string({ minLength: 1, maxLength: 60, unit: 'binary' }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);

describe('POST /api/consumer/collections/:id/links, for any address', () => {
  it('stores nothing whose scheme is not http, https or mailto', async () => {
    const target = await createCollection(db, { user: cast.owner });
    const count = () => countRows(db, 'links', { column: 'collection_id', value: target.id });
    let accepted = 0;

    await fc.assert(
      fc.asyncProperty(input, async (url) => {
        fc.pre(url.length > 0 && url.length <= 2048);
        const before = await count();
        const response = await call(app, 'POST', `/collections/${target.id}/links`, cast.owner, {
          name: 'Property',
          url,
        });
        expect([204, 400]).toContain(response.statusCode);
        if (response.statusCode === 204) accepted += 1;
        expect(await count()).toBe(before + (response.statusCode === 204 ? 1 : 0));
      }),
      { numRuns: 250 },
    );

    const rows = await db.select().from(links).where(eq(links.collectionId, target.id));
    expect(rows).toHaveLength(accepted);
    for (const row of rows) {
      expect(row.url).toMatch(/^(https?|mailto):/i);
      expect(ALLOWED.has(new URL(row.url).protocol)).toBe(true);
      expect(row.url).not.toMatch(HIDDEN);
    }
    // The generators reach both outcomes; a run that refused everything would prove little.
    expect(accepted).toBeGreaterThan(0);
  });
});
