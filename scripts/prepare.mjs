// Makes a checkout ready to run: installs packages when node_modules is missing or older
// than package-lock.json, and builds the web app, the server and the browser extension when
// their output is missing or older than their sources. Used by `npm start` and `npm test`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const at = (p) => path.join(root, p);

function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(path.join(target, entry)));
  }
  return latest;
}

function run(command, args) {
  process.stdout.write(`> ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const installed = at('node_modules/.package-lock.json');
if (!existsSync(installed) || newest(at('package-lock.json')) > newest(installed)) {
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

if (process.argv.includes('--build')) {
  // The shared packages (the contract, the link search) go into the builds that import them.
  const packages = newest(at('packages'));
  const web = Math.max(packages, newest(at('apps/web/src')), newest(at('apps/web/index.html')));
  if (newest(at('apps/web/dist/index.html')) < web)
    run('npm', ['run', 'build', '-w', '@signpost/web']);
  const server = Math.max(packages, newest(at('apps/server/src')));
  if (newest(at('apps/server/dist/main.js')) < server) {
    run('npm', ['run', 'build', '-w', '@signpost/server']);
  }
  // The browser extension: the folder to load unpacked, and its archive (apps/extension).
  const extension = Math.max(packages, newest(at('apps/extension')));
  if (newest(at('apps/extension/dist/extension/manifest.json')) < extension) {
    run('npm', ['run', 'build', '-w', '@signpost/extension']);
  }
}
