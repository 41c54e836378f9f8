import { describe, expect, it } from 'vitest';
import { fileNameOf } from './download';

const answer = (disposition?: string) =>
  new Response('', { headers: disposition ? { 'Content-Disposition': disposition } : {} });

describe('the name of a downloaded file', () => {
  it.each([
    ['attachment; filename="audit-log-2026-03-01.csv"', 'audit-log-2026-03-01.csv'],
    ['attachment; filename=bookmarks.html', 'bookmarks.html'],
    // The encoded name carries what ASCII cannot, and wins over the plain one.
    [`attachment; filename="Rsum.html"; filename*=UTF-8''R%C3%A9sum%C3%A9.html`, 'Résumé.html'],
    [`attachment; filename*=UTF-8''%E2%9C%93%20done.json`, '✓ done.json'],
    // A broken encoding falls back to the plain name.
    [`attachment; filename="plain.csv"; filename*=UTF-8''%E0%A4%A`, 'plain.csv'],
  ])('%s → %s', (disposition, name) => {
    expect(fileNameOf(answer(disposition), 'fallback.txt')).toBe(name);
  });

  it('is the fallback when the server names none', () => {
    expect(fileNameOf(answer(), 'bookmarks.json')).toBe('bookmarks.json');
    expect(fileNameOf(answer('attachment'), 'bookmarks.json')).toBe('bookmarks.json');
  });
});
