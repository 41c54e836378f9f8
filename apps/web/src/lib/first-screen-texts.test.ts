import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { en } from './locales/en';
import { enPanels } from './locales/en-panels';

/**
 * The first screen carries only its own texts; the panels' arrive with the first panel
 * (decision 0063). These tests read the sources: a module the first screen loads must not
 * show a panel text (it would show its key), and every module that shows one must import
 * `lib/panel-texts` itself, so no path to it can miss the registration.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PANEL_GROUPS = Object.keys(enPanels);
const PANEL_KEY = new RegExp(`['"\`](?:${PANEL_GROUPS.join('|')})\\.[a-zA-Z]`);
const REGISTRATION = path.join(SRC, 'lib', 'panel-texts.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') || candidate.endsWith('.tsx')) {
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

/** The module's static imports of our own files (`import type` and `import()` left out). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(
    /^import\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
  )) {
    const resolved = resolveImport(file, match[1]!);
    if (resolved) found.push(resolved);
  }
  return found;
}

/** Every module the entry loads before anything is imported on demand. */
function firstScreenModules(): Set<string> {
  const seen = new Set<string>();
  const queue = [path.join(SRC, 'main.tsx')];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}

const relative = (file: string) => path.relative(SRC, file);

describe('texts of the first screen and of the panels', () => {
  const first = firstScreenModules();
  const files = sourceFiles(SRC).filter((file) => !file.includes(`${path.sep}locales${path.sep}`));

  it('finds the first screen by its imports, and the panels outside it', () => {
    // Guards the walk itself: the portal is in, the panels are not, and neither is the login
    // screen: a signed-in person's page never loads it (app/app.tsx). Its texts stay with the
    // first screen's, so that it shows at once when it is needed.
    expect([...first].map(relative)).toEqual(
      expect.arrayContaining(['app/app.tsx', 'app/portal-view.tsx', 'lib/i18n.ts']),
    );
    expect(first.has(path.join(SRC, 'features/login/components/login-screen.tsx'))).toBe(false);
    expect(first.has(path.join(SRC, 'features/settings/components/settings-panel.tsx'))).toBe(
      false,
    );
    expect(first.has(path.join(SRC, 'features/add/components/add-panel.tsx'))).toBe(false);
  });

  it('keeps the panel texts and their registration out of the first screen', () => {
    const offenders = [...first].filter((file) => PANEL_KEY.test(readFileSync(file, 'utf8')));
    expect(offenders.map(relative)).toEqual([]);
    expect(first.has(REGISTRATION)).toBe(false);
  });

  it('has every module that shows a panel text import the registration itself', () => {
    const users = files.filter((file) => PANEL_KEY.test(readFileSync(file, 'utf8')));
    // The panels, settings, the setup screen and the invitation among them.
    expect(users.length).toBeGreaterThan(10);
    const missing = users.filter((file) => !staticImports(file).includes(REGISTRATION));
    expect(missing.map(relative)).toEqual([]);
  });

  it('splits the texts in two without a group in both', () => {
    const firstGroups = Object.keys(en);
    expect(PANEL_GROUPS.filter((group) => firstGroups.includes(group))).toEqual([]);
    expect(firstGroups).toEqual(expect.arrayContaining(['login', 'portal', 'space', 'reauth']));
  });
});
