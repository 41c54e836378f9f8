import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.ts';

describe('safeReturnTo', () => {
  it.each([
    ['/', '/'],
    ['/collections', '/collections'],
    ['/a/b?c=d', '/a/b?c=d'],
    ['/a#fragment', '/a'],
    ['/a/../b', '/b'],
  ])('keeps the path %j', (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected);
  });

  it.each([
    undefined,
    null,
    '',
    'https://evil.example',
    'http://evil.example/path',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%2F/evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/\tevil',
    '/\u200b/evil.example',
    `/${'a'.repeat(600)}`,
  ])('turns %j into /', (input) => {
    expect(safeReturnTo(input)).toBe('/');
  });

  it('never answers anything that leaves the origin, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (input) => {
        const out = safeReturnTo(input);
        const resolved = new URL(out, 'https://portal.example');
        expect(resolved.origin).toBe('https://portal.example');
        expect(out.startsWith('/')).toBe(true);
        expect(out.startsWith('//')).toBe(false);
        expect(out).not.toContain('\\');
      }),
      { numRuns: 2000 },
    );
  });
});
