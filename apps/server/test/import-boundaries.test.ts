// The import boundaries of docs/architecture.md are enforced by eslint.config.js. These
// tests lint small pieces of code placed at real paths of the tree, so that a zone that
// stopped matching (a renamed folder, a broken glob) fails here instead of passing quietly.
import { readdirSync } from 'node:fs';
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
      'lib/ sits below everything',
    ],
    [
      'lib importing the database',
      'apps/server/src/lib/probe.ts',
      "import { selectRows } from '../db/client.ts';\nexport const x = selectRows;\n",
      'lib/ sits below everything',
    ],
    [
      'lib importing the configuration',
      'apps/server/src/lib/probe.ts',
      "import { loadConfig } from '../config.ts';\nexport const x = loadConfig;\n",
      'lib/ sits below everything',
    ],
    [
      'db importing a module',
      'apps/server/src/db/probe.ts',
      "import { createLinksService } from '../modules/links/links.service.ts';\nexport const x = createLinksService;\n",
      'db/ imports only db/ and lib/',
    ],
    [
      'db importing a plugin',
      'apps/server/src/db/probe.ts',
      "import { authPlugin } from '../plugins/auth.ts';\nexport const x = authPlugin;\n",
      'db/ imports only db/ and lib/',
    ],
    [
      'the configuration importing a module',
      'apps/server/src/config.ts',
      "import { createLinksService } from './modules/links/links.service.ts';\nexport const x = createLinksService;\n",
      'config.ts reads the settings',
    ],
    [
      'the configuration importing the database',
      'apps/server/src/config.ts',
      "import { selectRows } from './db/client.ts';\nexport const x = selectRows;\n",
      'config.ts reads the settings',
    ],
    [
      'a plugin importing a module',
      'apps/server/src/plugins/probe.ts',
      "import { createAuthService } from '../modules/auth/auth.service.ts';\nexport const x = createAuthService;\n",
      'Plugins and infrastructure import no feature module',
    ],
    [
      'the job queue importing a module',
      'apps/server/src/jobs/probe.ts',
      "import { iconJobs } from '../modules/icons/icons.rounds.ts';\nexport const x = iconJobs;\n",
      'Plugins and infrastructure import no feature module',
    ],
    [
      'the outbound fetcher importing a module',
      'apps/server/src/outbound/probe.ts',
      "import { linkCheckJobs } from '../modules/link-health/link-health.rounds.ts';\nexport const x = linkCheckJobs;\n",
      'Plugins and infrastructure import no feature module',
    ],
    [
      'a module importing the app',
      `${server}/links/probe.ts`,
      "import { buildApp } from '../../app.ts';\nexport const x = buildApp;\n",
      'Only main.ts builds the app',
    ],
    [
      'a module importing the composition root',
      `${server}/links/probe.service.ts`,
      "import { composeServer } from '../../root.ts';\nexport const x = composeServer;\n",
      'Only app.ts, main.ts and admin.ts compose the server',
    ],
    [
      'a top-level file other than the entry points importing the composition root',
      'apps/server/src/startup.ts',
      "import { composeServer } from './root.ts';\nexport const x = composeServer;\n",
      'Only app.ts, main.ts and admin.ts compose the server',
    ],
    [
      'server code importing a test fixture',
      `${server}/live/probe.ts`,
      "import { openStream } from '../../../test/support/live-stream.ts';\nexport const x = openStream;\n",
      'does not import test code',
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
      'the server’s entry point building the app',
      'apps/server/src/main.ts',
      "import { buildApp } from './app.ts';\nexport const x = buildApp;\n",
    ],
    [
      'the command line composing the server',
      'apps/server/src/admin.ts',
      "import { composeServer } from './root.ts';\nexport const x = composeServer;\n",
    ],
    [
      'the app composing the server',
      'apps/server/src/app.ts',
      "import { composeServer } from './root.ts';\nexport const x = composeServer;\n",
    ],
    [
      'the composition root importing modules',
      'apps/server/src/root.ts',
      "import { createLinksService } from './modules/links/links.service.ts';\nexport const x = createLinksService;\n",
    ],
    [
      'the configuration importing lib',
      'apps/server/src/config.ts',
      "import { parseOidcProviders } from './lib/oidc-providers.ts';\nexport const x = parseOidcProviders;\n",
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

describe('where test code lives', () => {
  it('is never under src/ but in test files: fixtures and helpers live in test/', async () => {
    const files = readdirSync(path.join(root, 'apps/server/src'), { recursive: true });
    const misplaced = files.map(String).filter((file) => /\.(fixture|test-[\w-]+)\.ts$/.test(file));
    expect(misplaced).toEqual([]);
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
