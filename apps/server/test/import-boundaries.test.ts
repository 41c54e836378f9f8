// The import boundaries of docs/architecture.md are enforced by eslint.config.js. These
// tests lint small pieces of code placed at real paths of the tree, so that a zone that
// stopped matching (a renamed folder, a broken glob) fails here instead of passing quietly.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// The probes below are imported by nothing, so they cannot close a cycle: no-cycle is left out
// for them (it would read every file they lead to), and has cases of its own further down.
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId !== 'import-x/no-cycle',
});

/** The boundary and accessibility rules a piece of code at `file` breaks. */
async function broken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => /^(import-x|jsx-a11y-x)\//.test(m.ruleId ?? ''))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

const server = 'apps/server/src/modules';
const web = 'apps/web/src';

describe('import boundaries', () => {
  it.each([
    [
      "a module importing another module's repository",
      `${server}/sso/probe.service.ts`,
      "import { createSessionsRepository } from '../auth/sessions.repository.ts';\nexport const x = createSessionsRepository;\n",
      "another module's service",
    ],
    [
      'a repository importing a service',
      `${server}/links/probe.repository.ts`,
      "import { createLinksService } from './links.service.ts';\nexport const x = createLinksService;\n",
      'SQL only',
    ],
    [
      'a service importing routes',
      `${server}/links/probe.service.ts`,
      "import { linksRoutes } from './links.routes.ts';\nexport const x = linksRoutes;\n",
      'HTTP routes',
    ],
    [
      'routes importing a repository',
      `${server}/links/probe.routes.ts`,
      "import { createLinksRepository } from './links.repository.ts';\nexport const x = createLinksRepository;\n",
      'Routes are thin',
    ],
    [
      'lib importing a module',
      'apps/server/src/lib/probe.ts',
      "import { createLinksService } from '../modules/links/links.service.ts';\nexport const x = createLinksService;\n",
      'below the modules',
    ],
    [
      'server code importing test helpers',
      `${server}/links/probe.ts`,
      "import { createUser } from '../../../test/factories.ts';\nexport const x = createUser;\n",
      'does not import test code',
    ],
    [
      'a feature importing another feature',
      `${web}/features/add/probe.ts`,
      "import { MembersPanel } from '../members/components/members-panel';\nexport const x = MembersPanel;\n",
      'does not import another feature',
    ],
    [
      'a feature importing the app layer',
      `${web}/features/add/probe.ts`,
      "import { usePanels } from '../../app/use-panels';\nexport const x = usePanels;\n",
      'app layer',
    ],
    [
      'lib importing a feature',
      `${web}/lib/probe.ts`,
      "import { AddPanel } from '../features/add/components/add-panel';\nexport const x = AddPanel;\n",
      'import none of them',
    ],
    [
      'web code importing test helpers',
      `${web}/lib/probe.ts`,
      "import { renderWithQuery } from '../test/render-with-query';\nexport const x = renderWithQuery;\n",
      'does not import test code',
    ],
  ])('refuses %s', async (_case, file, code, message) => {
    const errors = await broken(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('import-x/no-restricted-paths');
    expect(errors[0]).toContain(message);
  });

  it.each([
    [
      'a service using another module’s service',
      `${server}/sso/probe.service.ts`,
      "import { createThrottleService } from '../throttle/throttle.service.ts';\nexport const x = createThrottleService;\n",
    ],
    [
      'a test importing test helpers',
      `${server}/links/probe.test.ts`,
      "import { createUser } from '../../../test/factories.ts';\nexport const x = createUser;\n",
    ],
    [
      'a feature importing lib and components',
      `${web}/features/add/probe.ts`,
      "import { useMenu } from '../../lib/menu/get-menu';\nimport { Dialog } from '../../components/dialog';\nexport const x = [useMenu, Dialog];\n",
    ],
    [
      'the app layer importing a feature',
      `${web}/app/probe.ts`,
      "import { AddPanel } from '../features/add/components/add-panel';\nexport const x = AddPanel;\n",
    ],
  ])('allows %s', async (_case, file, code) => {
    expect(await broken(file, code)).toEqual([]);
  });
});

describe('import cycles', () => {
  // The two files of each pair import each other, from a folder eslint.config.js ignores so
  // that the repository's lint stays clean; linted with the ignores off, both are refused.
  const unignored = new ESLint({ cwd: root, ignore: false });

  it.each([
    ['the web app', 'apps/web/src/test/import-cycle', 'first.tsx', 'second.tsx'],
    ['the server', 'apps/server/test/import-cycle', 'first.ts', 'second.ts'],
  ])('refuses two files of %s that import each other', async (_tree, folder, ...files) => {
    const results = await unignored.lintFiles(files.map((file) => path.join(root, folder, file)));
    const found = results.map((result) => result.messages.map((m) => `${m.ruleId}: ${m.message}`));
    expect(found).toEqual([
      [expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/)],
      [expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/)],
    ]);
  });
});

describe('accessibility lint', () => {
  it('refuses a click handler on an element a keyboard cannot reach', async () => {
    const errors = await broken(
      `${web}/components/probe.tsx`,
      'export const X = ({ go }: { go: () => void }) => <div onClick={go}>Go</div>;\n',
    );
    expect(errors.some((e) => e.startsWith('jsx-a11y-x/click-events-have-key-events'))).toBe(true);
  });
});
