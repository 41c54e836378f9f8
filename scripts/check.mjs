// `npm run check`: the type check beside lint and then the format check, on two cores at
// once; each one's output is printed whole when it ends, and the check fails if any failed.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Runs npm scripts one after the other; resolves to their output and whether all passed. */
function inTurn(scripts) {
  return scripts.reduce(
    (previous, script) =>
      previous.then((sofar) => {
        if (!sofar.ok) return sofar;
        return new Promise((resolve) => {
          const chunks = [`> npm run ${script}\n`];
          const child = spawn('npm', ['run', '--silent', script], {
            cwd: root,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          child.stdout.on('data', (chunk) => chunks.push(chunk));
          child.stderr.on('data', (chunk) => chunks.push(chunk));
          child.on('error', (error) => {
            chunks.push(`${error.message}\n`);
            resolve({ ok: false, output: [...sofar.output, ...chunks] });
          });
          child.on('close', (status) =>
            resolve({ ok: status === 0, output: [...sofar.output, ...chunks] }),
          );
        });
      }),
    Promise.resolve({ ok: true, output: [] }),
  );
}

const started = Date.now();
const results = await Promise.all([inTurn(['typecheck']), inTurn(['lint', 'format:check'])]);
for (const { output } of results) for (const chunk of output) process.stdout.write(chunk);
const ok = results.every((result) => result.ok);
process.stdout.write(
  `\ncheck ${ok ? 'passed' : 'FAILED'} (${Math.round((Date.now() - started) / 1000)} s)\n`,
);
process.exit(ok ? 0 : 1);
