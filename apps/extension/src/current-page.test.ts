import { LIMITS } from '@signpost/contract';
import { describe, expect, it } from 'vitest';
import { NAME_LIMIT, nameFromTitle } from './current-page';

describe('a page’s title as the link’s name', () => {
  it('is the contract’s longest name at most', () => {
    expect(NAME_LIMIT).toBe(LIMITS.name);
  });

  it('is on one line, without control characters', () => {
    expect(nameFromTitle('  Release\n\tnotes \u0007 2.0  ')).toBe('Release notes 2.0');
    expect(nameFromTitle('')).toBe('');
    expect(nameFromTitle('invoice\u202egnp.exe \u2067x\u2069')).toBe('invoicegnp.exe x');
  });

  it('is cut where it is too long, with an ellipsis, and never inside a character', () => {
    const long = `${'🚀'.repeat(150)} ${'a'.repeat(150)}`;
    const name = nameFromTitle(long);
    expect(Array.from(name)).toHaveLength(NAME_LIMIT);
    expect(name.endsWith('…')).toBe(true);
    expect(name.startsWith('🚀'.repeat(150))).toBe(true);
    expect(nameFromTitle('x'.repeat(NAME_LIMIT))).toBe('x'.repeat(NAME_LIMIT));
  });
});
