import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));
const folders = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const server = 'apps/server/src';
const web = 'apps/web/src';

/**
 * The import boundaries of docs/architecture.md. A zone forbids files under `target` to
 * import anything matched by `from` (paths relative to the repository root). The zones are
 * made from the folders on disk, so a new module or feature is held to them at once.
 */
const serverZones = [
  // A module reaches another module's data through that module's service, never through
  // its repository (the one place with its SQL).
  ...folders(`${server}/modules`).map((name) => ({
    target: `${server}/modules/${name}`,
    from: [`${server}/modules/*/*.repository.ts`],
    except: [`**/modules/${name}/*.repository.ts`],
    message: `A module uses another module's service, not its repository (docs/architecture.md).`,
  })),
  // routes → services → repositories, never back up.
  {
    target: `${server}/modules/*/*.repository.ts`,
    from: [`${server}/modules/*/*.service.ts`, `${server}/modules/*/*.routes.ts`],
    message: 'A repository holds SQL only; it calls no service or route.',
  },
  {
    target: `${server}/modules/*/*.service.ts`,
    from: [`${server}/modules/*/*.routes.ts`],
    message: 'A service does not depend on HTTP routes.',
  },
  {
    target: `${server}/modules/*/*.routes.ts`,
    from: [`${server}/modules/*/*.repository.ts`],
    message: 'Routes are thin: they call a service, which calls the repository.',
  },
  // The layers below the modules import nothing above them (decision 0070).
  {
    target: `${server}/lib`,
    from: server,
    except: ['./lib'],
    message: 'lib/ sits below everything: it imports nothing of the server but lib/.',
  },
  {
    target: `${server}/db`,
    from: server,
    except: ['./db', './lib'],
    message: 'db/ imports only db/ and lib/.',
  },
  {
    target: `${server}/config.ts`,
    from: server,
    except: ['./lib', './config.ts'],
    message: 'config.ts reads the settings: it imports only lib/.',
  },
  // Plugins and infrastructure serve the modules and know none of them: modules declare
  // their routes, jobs and tasks, and the composition root registers them.
  {
    target: [`${server}/plugins`, `${server}/jobs`, `${server}/outbound`],
    from: `${server}/modules`,
    message:
      'Plugins and infrastructure import no feature module: the root hands them what they need.',
  },
];

/**
 * What only production code is held to: the entry points are imported by nobody but the
 * entry points above them (tests build the app and the root too).
 */
const serverEntryZones = [
  {
    target: [`${server}/!(main|boot).ts`, `${server}/*/**`],
    from: `${server}/app.ts`,
    message:
      'Only main.ts builds the app (app.ts), through boot.ts; tests build it through test/app.ts.',
  },
  {
    target: [`${server}/!(main|admin|app).ts`, `${server}/*/**`],
    from: `${server}/root.ts`,
    message:
      'Only app.ts, main.ts and admin.ts compose the server (root.ts): a module is handed its collaborators.',
  },
];

const webZones = [
  // No feature imports another: what two features share lives in components/ or lib/.
  ...folders(`${web}/features`).map((name) => ({
    target: `${web}/features/${name}`,
    from: `${web}/features`,
    except: [`./${name}`],
    message: 'A feature does not import another feature; share through components/ or lib/.',
  })),
  // app → features → components/lib, one way.
  {
    target: `${web}/features`,
    from: `${web}/app`,
    message: 'Features do not import the app layer.',
  },
  {
    target: [`${web}/components`, `${web}/lib`],
    from: [`${web}/features`, `${web}/app`],
    message: 'components/ and lib/ are shared by features and import none of them.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/coverage/**',
      '**/test-results/**',
      '**/playwright-report/**',
      // Files that import each other on purpose; import-boundaries.test.ts lints them.
      'apps/web/src/test/import-cycle/**',
      'apps/server/test/import-cycle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        performance: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='only'][callee.object.name=/^(it|test|describe)$/]",
          message: 'No focused tests in main.',
        },
        {
          selector:
            "CallExpression[callee.property.name='skip'][callee.object.name=/^(it|test|describe)$/]",
          message: 'No skipped tests in main.',
        },
      ],
    },
  },
  {
    // Imports resolve like TypeScript does (workspace packages, `.ts` and extensionless).
    // The plugin reads a file an import leads to only if its extension is listed in
    // `import-x/extensions` (JavaScript ones by default) and parses it with the parser the
    // configs above set, typescript-eslint's; without `.ts` and `.tsx` there, no-cycle
    // followed none of our imports and never fired.
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: [
            'packages/contract/tsconfig.json',
            'packages/link-search/tsconfig.json',
            'apps/server/tsconfig.json',
            'apps/web/tsconfig.json',
            'apps/extension/tsconfig.json',
            'apps/extension/tsconfig.tools.json',
          ],
        }),
      ],
    },
    rules: {
      // Imports of packages are not followed: none leads back to our files (the contract, the
      // one of ours imported by name, imports no app), and following them meant parsing some
      // 700 type declaration files of node_modules besides our own 580.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { basePath: root, zones: [...serverZones, ...webZones] },
      ],
    },
  },
  {
    // Production code never reaches into tests: test helpers live under test/ (server) and
    // src/test/ (web), and only test files import them.
    files: [`${server}/**/*.ts`, `${web}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.{ts,tsx}', `${web}/test/**`],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            ...serverZones,
            ...serverEntryZones,
            ...webZones,
            {
              target: server,
              from: ['apps/server/test/**', `${server}/**/*.test.ts`, `${server}/**/*.test-*.ts`],
              message: 'Production code does not import test code.',
            },
            {
              target: web,
              from: [`${web}/test/**`, `${web}/**/*.test.{ts,tsx}`],
              message: 'Production code does not import test code.',
            },
          ],
        },
      ],
    },
  },
  {
    // The web app runs in the browser and uses React hooks.
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // What a person meets is accessible: roles, labels, keyboard reach (axe checks the
    // rendered pages in the journeys; this catches it as the code is written).
    files: [`${web}/**/*.tsx`],
    ...jsxA11y.configs.recommended,
  },
);
