// Bundles the server (with the contract's TypeScript) into dist/main.js, and the
// administration commands into dist/admin.js; packages from
// node_modules stay external. Copies the SQL migrations and function files beside it.
import { build } from 'esbuild';
import { cp, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

// Paths below are the server folder's, wherever the script is started from.
const here = fileURLToPath(new URL('.', import.meta.url));
process.chdir(here);

const pkg = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).flatMap((name) => [name, `${name}/*`]);

await rm('dist', { recursive: true, force: true });
await build({
  absWorkingDir: here,
  entryPoints: ['src/main.ts', 'src/admin.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
await cp('src/db/migrations', 'dist/migrations', { recursive: true });
await cp('src/db/functions', 'dist/functions', { recursive: true });
